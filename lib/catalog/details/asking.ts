/**
 * A catalog whose searches ask the details job for a run (docs/catalog.md, "The details job"):
 * what a feature finds by title it stores from the search row, without details, so a webhook's
 * or an AI round's search is followed by a run soon (asks coalesce, so a burst is one run).
 */
import type { Catalog } from "../types.ts";

/** `catalog` with `ask` called after every search that found something. */
export function askingAfterSearch(catalog: Catalog, ask: () => void): Catalog {
  return {
    ...catalog,
    async search(query, options) {
      const answer = await catalog.search(query, options);
      if (answer.value.results.length > 0) ask();
      return answer;
    },
  };
}
