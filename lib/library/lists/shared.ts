/**
 * The shared read: a page of a list reached by its link, through public.shared_list (the one
 * security-definer function of the shared read), which answers nothing private: no list id,
 * no user id, no email; the owner only by the handle and display name of their profile.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import type { MovieCard } from "@/lib/catalog/cards.ts";
import { encodeCursor, type PageRequest } from "./cursor.ts";
import { listNotFound } from "./items.ts";
import { isSlug } from "./slug.ts";
import type { ListCard } from "./sql.ts";

/** The owner as a shared list shows them; null when they have made no profile. */
interface SharedOwner {
  displayName: string;
  handle: string;
}

/** GET /api/shared/:slug's body. */
export interface SharedPage {
  list: {
    name: string;
    description: string;
    ranked: boolean;
    count: number;
    owner: SharedOwner | null;
  };
  movies: ListCard[];
  nextCursor: string | null;
}

const SHARED_SQL = `select * from public.shared_list($1, $2, $3)`;

function card(r: Record<string, unknown>): ListCard {
  const movie: MovieCard = {
    catalogId: Number(r.catalog_id),
    title: String(r.title),
    year: Number(r.year),
    posterPath: String(r.poster_path),
    genres: (r.genres as string[]).map(String),
    runtime: Number(r.runtime),
  };
  return { ...movie, position: Number(r.position), note: r.note === null ? null : String(r.note) };
}

/** A page of the list behind `slug`, with its visibility (the page's `noindex`); else 404. */
export async function readShared(
  deps: Pick<AppDeps, "store">,
  slug: string,
  page: PageRequest,
): Promise<SharedPage & { visibility: string }> {
  if (!isSlug(slug)) throw listNotFound();
  const rows = await deps.store.query(SHARED_SQL, [slug, page.after, page.limit + 1]);
  if (rows.length === 0) throw listNotFound();
  const first = rows[0];
  const items = rows.filter((r) => r.catalog_id !== null).map(card);
  const more = items.length > page.limit;
  const movies = more ? items.slice(0, page.limit) : items;
  return {
    list: {
      name: String(first.name),
      description: String(first.description),
      ranked: Boolean(first.ranked),
      count: Number(first.item_count),
      owner: first.owner_handle === null ? null : {
        displayName: String(first.owner_display_name),
        handle: String(first.owner_handle),
      },
    },
    movies,
    nextCursor: more ? encodeCursor(movies[movies.length - 1].position) : null,
    visibility: String(first.visibility),
  };
}
