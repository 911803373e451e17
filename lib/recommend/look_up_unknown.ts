/**
 * Dismissed movies the movies store has no title for (dismissed from a set made before its
 * picks were stored, or by id through the API) are looked up through the catalog, and so the
 * shared external window, before the prompt is built (docs/recommend.md, "Reasons, dismissals and where to watch"). A lookup that fails
 * leaves that title out of the prompt; the generation still never recommends the movie.
 */
import type { AppDeps } from "../platform/deps.ts";
import { describeError } from "../core/log.ts";

// Lookups at a time, leaving room in the window for other users.
const AT_ONCE = 4;

/** Fetches (and so stores) the details of each of `ids` the store has no title for. */
export async function lookUpUnknown(
  deps: AppDeps,
  ids: number[],
  details: ((catalogId: number) => Promise<unknown>) | undefined,
): Promise<void> {
  if (!details || ids.length === 0) return;
  const known = await deps.store.query<{ catalog_id: number }>(
    `select catalog_id from public.movies where catalog_id = any($1::int[]) and title <> ''`,
    [ids],
  );
  const have = new Set(known.map((r) => Number(r.catalog_id)));
  const unknown = ids.filter((id) => !have.has(id));
  for (let start = 0; start < unknown.length; start += AT_ONCE) {
    await Promise.all(
      unknown.slice(start, start + AT_ONCE).map(async (id) => {
        try {
          await details(id);
        } catch (error) {
          deps.log({
            level: "warn",
            msg: "dismissed movie lookup failed",
            catalogId: id,
            error: describeError(error),
          });
        }
      }),
    );
  }
}
