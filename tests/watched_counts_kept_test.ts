/**
 * The watched counts are kept on write (docs/entries.md): after every kind of write (an add, a
 * re-rating, a new date, a removal, a history import, a diary entry, a movie's runtime arriving
 * or changing, concurrent writes of two users) the kept rows equal count(*) and the sums over
 * the rows, a page's total reads them, the strip's films, hours and this year agree (its rated
 * figure is the year in review's rated viewings), and account deletion leaves none.
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { deleteAccount } from "../lib/identity/auth/delete_account.ts";
import { letterboxdZip } from "./helpers/history_files.ts";
import { historyWorld } from "./helpers/history_import_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { KEPT_COUNTS_SQL, SCRATCH_COUNTS_SQL } from "./helpers/watched_counts_reference.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { send } from "./helpers/watched_entries.ts";

type World = Awaited<ReturnType<typeof historyWorld>>;

// Ids no other test uses, since the PostgreSQL store's movies table is shared by the run.
const B = 1_900_200_000;

async function movie(w: World, id: number, runtime: number | null, genres: string[] = []) {
  await w.t.store.query(
    `insert into public.movies (catalog_id, title, year, runtime, genres, has_details)
     values ($1, $2, 2000, $3, $4, true)
     on conflict (catalog_id) do update set runtime = excluded.runtime, genres = excluded.genres`,
    [id, `Counted ${id}`, runtime, genres],
  );
}

async function exact(w: World, u: TestUser, step: string) {
  const kept = await w.t.store.query(KEPT_COUNTS_SQL, [u.id]);
  const scratch = await w.t.store.query(SCRATCH_COUNTS_SQL, [u.id]);
  assert.deepEqual(kept, scratch, step);
  const all = scratch.find((r) => r.period === 0);
  const movies = Number(all?.movies ?? 0);
  // The readers: the strip and a page's total, rated or not.
  const stats = await w.t.services.entries.stats(u.id);
  assert.equal(stats.movies, movies, step);
  assert.equal(stats.minutes, Number(all?.minutes ?? 0), step);
  assert.equal(stats.thisYear, Number(scratch.find((r) => r.period === 2025)?.movies ?? 0), step);
  // The strip's "rated" counts rated viewings (docs/diary.md); a page's unrated total counts films.
  const unrated = movies - Number(all?.rated ?? 0);
  for (const [query, total] of [["", movies], ["&rated=false", unrated]] as const) {
    const res = await w.t.request(`/api/watched?limit=1${query}`, { headers: u.headers });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).total, total, `${step} ${query}`);
  }
}

const add = (w: World, u: TestUser, body: Record<string, unknown>) =>
  w.t.request("/api/watched", send(u, "POST", body)).then((r) => r.body?.cancel());

for (const engine of ENGINES) {
  Deno.test(`[${engine}] the kept watched counts equal count(*) and the sums after every kind of write`, async () => {
    await using w = await historyWorld({
      engine,
      clock: new FakeClock("2025-06-01T12:00:00Z"),
    });
    const u = w.user;
    const other = await createUser(w.t.deps);
    await movie(w, B + 1, 120, ["Drama"]);
    await movie(w, B + 2, 90, ["Comedy", "Drama"]);
    await exact(w, u, "empty");

    await add(w, u, { catalogId: B + 1, watchedOn: "2025-01-10", rating: 8 });
    await add(w, u, { catalogId: B + 2, watchedOn: "2024-12-31" });
    // A movie with no row yet: its runtime arrives later.
    await add(w, u, { catalogId: B + 3, rating: 5 });
    await add(w, u, { catalogId: B + 4, watchedOn: null });
    await exact(w, u, "added");

    let res = await w.t.request(`/api/watched/${B + 2}`, send(u, "PATCH", { rating: 6 }));
    assert.equal(res.status, 200);
    await res.body?.cancel();
    res = await w.t.request(`/api/watched/${B + 1}`, send(u, "PATCH", { watchedOn: "2023-03-03" }));
    assert.equal(res.status, 200);
    await res.body?.cancel();
    res = await w.t.request(`/api/watched/${B + 1}`, send(u, "PATCH", { rating: null }));
    await res.body?.cancel();
    // A repeated add naming a field changes that field only.
    await add(w, u, { catalogId: B + 4, rating: 10 });
    await exact(w, u, "re-rated and re-dated");

    await movie(w, B + 3, 101);
    await exact(w, u, "runtime arrived");
    await movie(w, B + 1, 95);
    await exact(w, u, "runtime changed");

    res = await w.t.request("/api/diary", send(u, "POST", { catalogId: B + 5, rating: 7 }));
    assert.equal(res.status, 201);
    await res.body?.cancel();
    await exact(w, u, "a diary entry of a movie not yet watched");

    const run = await w.importFile(letterboxdZip());
    assert.equal(run.status, "succeeded");
    await exact(w, u, "a history import");

    res = await w.t.request("/api/watched", send(u, "DELETE", { catalogId: B + 1 }));
    assert.equal(res.status, 200);
    await res.body?.cancel();
    await exact(w, u, "removed");

    // Two users writing at once, adds and removals interleaved.
    const ids = Array.from({ length: 12 }, (_, i) => B + 10 + i);
    await Promise.all(ids.flatMap((id, i) => [
      add(w, u, { catalogId: id, rating: 1 + (i % 10), watchedOn: "2025-02-02" }),
      add(w, other, { catalogId: id, watchedOn: `202${i % 6}-05-05` }),
    ]));
    await Promise.all(
      ids.filter((_, i) => i % 3 === 0).flatMap((id) => [
        w.t.request("/api/watched", send(u, "DELETE", { catalogId: id })).then((r) =>
          r.body?.cancel()
        ),
        add(w, other, { catalogId: id, rating: 9 }),
        movie(w, id, 77),
      ]),
    );
    await exact(w, u, "concurrent writes");
    await exact(w, other, "the other user's, concurrent");

    await deleteAccount(w.t.deps, u.id);
    const [left] = await w.t.store.query<{ n: number }>(
      `select count(*)::int as n from public.user_watched_counts where user_id = $1`,
      [u.id],
    );
    assert.equal(left.n, 0);
    await exact(w, other, "after another account went");
  });
}
