/**
 * The film a share names by title (the share target, docs/website.md): the catalog search's one
 * clear match, by the rule the history import and the webhooks use (unique_match.ts: the same
 * title key, the year's own release when a year is given). Nothing is stored.
 */
import { Problem } from "../core/problem.ts";
import type { Catalog } from "./types.ts";
import { uniqueSearchMatch } from "./unique_match.ts";

/** A title a share names, with its year when the share gives one. */
interface SharedFilm {
  title: string;
  year?: number;
}

/**
 * The catalog id of the first of `films` (tried in order) that the search matches uniquely; null
 * when one is ambiguous (the search page shows the candidates), none is found, or the search is
 * busy or failing (the search page says so then).
 */
export async function findSharedFilm(
  catalog: Pick<Catalog, "search">,
  films: SharedFilm[],
): Promise<number | null> {
  const search = async (title: string, year: number | undefined) =>
    (await catalog.search(title, { year, wait: false })).value.results;
  for (const film of films) {
    try {
      const match = await uniqueSearchMatch(film, search);
      if ("id" in match) return match.id;
      if (match.reason === "ambiguous") return null;
    } catch (error) {
      if (error instanceof Problem) return null;
      throw error;
    }
  }
  return null;
}
