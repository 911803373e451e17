/**
 * How many viewings a diary holds (docs/diary.md, "Limits"; issue 43): at most 1,000 of one film
 * and 200,000 in all per user. Checked under the lists' lock inside the writing transaction (run
 * as the user), so the counts read are the counts written. A viewing already stored (the same
 * movie, date and source: a repeat updates it) never counts against them.
 */
import { Problem } from "@/lib/core/problem.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";

/** What names a viewing: its movie, date and source. */
interface ViewingKey {
  catalogId: number;
  watchedOn: string;
  source: string;
}

/** At most this many viewings of one film per user. */
export const MAX_VIEWINGS_PER_FILM = 1_000;
/** At most this many viewings per user. */
export const MAX_VIEWINGS = 200_000;

/** Why a viewing does not fit: its film's cap, or the diary's. */
type Cap = "film" | "diary";

// Per viewing, in order: whether it is stored already, and its film's viewings. Beside them the
// kept all-time figure (docs/diary.md, "Stats are kept on write"): its viewings count every
// viewing plus each viewing-less watched film once, so it is never below the diary's true count,
// and one row read does for everyone far from the cap.
const ROOM_SQL = `select v.ord::integer as ord,
    exists (select 1 from public.user_viewings t
      where t.user_id = (select auth.uid()) and t.catalog_id = v.c and t.watched_on = v.w
        and t.source = v.s) as present,
    (select count(*) from public.user_viewings t
      where t.user_id = (select auth.uid()) and t.catalog_id = v.c)::integer as film,
    coalesce((select p.viewings from public.user_stats_periods p
      where p.user_id = (select auth.uid()) and p.period = 0), 0)::integer as bound
  from unnest($1::integer[], $2::date[], $3::text[]) with ordinality as v(c, w, s, ord)
  order by v.ord`;

const TOTAL_SQL = `select count(*)::integer as n from public.user_viewings
  where user_id = (select auth.uid())`;

/** The 400 of a viewing past a cap. */
export function tooManyViewings(cap: Cap): Problem {
  return new Problem(
    400,
    "too_many_viewings",
    cap === "film"
      ? `A film holds at most ${MAX_VIEWINGS_PER_FILM.toLocaleString("en")} viewings in your diary.`
      : `Your diary holds at most ${MAX_VIEWINGS.toLocaleString("en")} viewings.`,
  );
}

/**
 * Which of `viewings` fit, in order (a new one while its film and the diary have room, and
 * every one already stored), and for each of the others the cap it met. Run as the user, under
 * the lists' lock; each (movie, date, source) at most once in `viewings`.
 */
export async function fitViewings<V extends ViewingKey>(
  tx: Sql,
  viewings: V[],
): Promise<{ kept: V[]; refused: Cap[] }> {
  if (viewings.length === 0) return { kept: [], refused: [] };
  const rows = await tx.query<{ present: boolean; film: number; bound: number }>(ROOM_SQL, [
    viewings.map((v) => v.catalogId),
    viewings.map((v) => v.watchedOn),
    viewings.map((v) => v.source),
  ]);
  const fresh = rows.filter((r) => !r.present).length;
  let diaryRoom = MAX_VIEWINGS - Number(rows[0].bound);
  // Near the cap the kept figure may overcount: the viewings themselves are counted.
  if (diaryRoom < fresh) {
    const [total] = await tx.query<{ n: number }>(TOTAL_SQL);
    diaryRoom = MAX_VIEWINGS - Number(total.n);
  }
  const filmRoom = new Map<number, number>();
  const kept: V[] = [];
  const refused: Cap[] = [];
  viewings.forEach((viewing, i) => {
    const row = rows[i];
    if (row.present) {
      kept.push(viewing);
      return;
    }
    const room = filmRoom.get(viewing.catalogId) ?? MAX_VIEWINGS_PER_FILM - Number(row.film);
    if (room <= 0) refused.push("film");
    else if (diaryRoom <= 0) refused.push("diary");
    else {
      kept.push(viewing);
      filmRoom.set(viewing.catalogId, room - 1);
      diaryRoom--;
      return;
    }
    filmRoom.set(viewing.catalogId, room);
  });
  return { kept, refused };
}
