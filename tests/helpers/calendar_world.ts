/**
 * Films with release dates as the details job stores them, on a user's My List, watched list
 * and an own list, for the release calendar's tests (docs/calendar.md). Today is the fake
 * clock's 2026-11-22.
 */
import type { Store } from "@/lib/platform/store/mod.ts";

type Release = { type: number; date: string; certification: string; note: string };

const r = (type: number, date: string, certification = "", note = ""): Release => ({
  type,
  date,
  certification,
  note,
});

/** The films: id, title, year, poster path, release dates by region. */
const CALENDAR_FILMS: [number, string, number, string, Record<string, Release[]> | null][] = [
  [946101, "Arrival Day", 2026, "/arrival.jpg", {
    US: [r(3, "2026-12-04", "PG-13"), r(4, "2027-01-10")],
    GB: [r(3, "2026-12-11", "12A")],
  }],
  // No US date of either type: the earliest elsewhere (DE and FR tie on the day: DE).
  [946102, "Border Line", 2027, "", {
    FR: [r(4, "2027-02-01", "", "Canal+"), r(5, "2027-03-01", "", "Blu-ray")],
    DE: [r(4, "2027-02-01")],
  }],
  [946103, "Clear Skies", 2026, "/clear.jpg", { US: [r(3, "2026-11-30")] }],
  [946104, "Deep Water", 2026, "/deep.jpg", { US: [r(6, "2026-12-20")] }],
  // A limited release before the wide one: theatrical is the earlier.
  [946105, "Early Show", 2026, "/early.jpg", {
    US: [r(1, "2026-09-01", "", "Venice"), r(2, "2026-11-10"), r(3, "2026-11-25")],
  }],
  [946106, "Fetched Before", 2025, "/before.jpg", null],
];

/** Stores the films; `user` gets (after any it has) My List 946101, 946102, 946105, 946106, watched 946103, and a list of 946104. */
export async function seedCalendar(store: Store, user: string): Promise<void> {
  for (const [id, title, year, poster, releases] of CALENDAR_FILMS) {
    await store.query(
      `insert into public.movies (catalog_id, title, original_title, year, poster_path,
         release_dates, has_details)
       values ($1, $2, $2, $3, $4, $5::text::jsonb, true)
       on conflict (catalog_id) do update set title = excluded.title, year = excluded.year,
         poster_path = excluded.poster_path, release_dates = excluded.release_dates`,
      [id, title, year, poster, releases === null ? null : JSON.stringify(releases)],
    );
  }
  await store.query(
    `insert into public.user_my_list (user_id, catalog_ids) values ($1, $2)
     on conflict (user_id) do update
       set catalog_ids = public.user_my_list.catalog_ids || excluded.catalog_ids`,
    [user, [946101, 946102, 946105, 946106]],
  );
  await store.query(
    "insert into public.user_watched_movies (user_id, catalog_id) values ($1, 946103)",
    [user],
  );
  const [list] = await store.query<{ id: string }>(
    "insert into public.user_lists (user_id, name) values ($1, 'Later') returning id",
    [user],
  );
  await store.query(
    "insert into public.user_list_items (list_id, catalog_id, position) values ($1, 946104, 1)",
    [list.id],
  );
}
