/**
 * The year in review is kept on write (docs/diary.md): after every kind of write (a viewing
 * logged, moved to another year, re-rated, removed; a movie watched without a viewing; a movie's
 * details arriving or changing; a movie leaving the watched list) the figures equal the ones
 * computed from scratch, and account deletion leaves none behind.
 */
import assert from "node:assert/strict";
import { deleteAccount } from "../lib/identity/auth/delete_account.ts";
import { testApp } from "./helpers/app.ts";
import { referenceStats } from "./helpers/diary_stats_reference.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { send } from "./helpers/watched_entries.ts";

type T = Awaited<ReturnType<typeof testApp>>;

// Ids no other test uses, since the PostgreSQL store's movies table is shared by the run.
const B = 1_900_100_000;

async function movie(t: T, id: number, fields: Record<string, unknown>) {
  await t.store.query(
    `insert into public.movies (catalog_id, title, year, runtime, genres, directors, actors,
       has_details)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     on conflict (catalog_id) do update set title = excluded.title, year = excluded.year,
       runtime = excluded.runtime, genres = excluded.genres, directors = excluded.directors,
       actors = excluded.actors, has_details = excluded.has_details`,
    [
      id,
      fields.title ?? `Film ${id}`,
      fields.year ?? 2000,
      fields.runtime ?? null,
      fields.genres ?? [],
      fields.directors ?? [],
      fields.actors ?? [],
      fields.hasDetails ?? false,
    ],
  );
}

async function same(t: T, u: TestUser, step: string) {
  for (const year of [2023, 2024, 2025, null]) {
    const res = await t.request(`/api/stats${year ? `?year=${year}` : ""}`, {
      headers: u.headers,
    });
    assert.equal(res.status, 200);
    assert.deepEqual(
      await res.json(),
      await referenceStats(t.store, u.id, year),
      `${step}, ${year}`,
    );
  }
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] the kept figures equal the ones computed from scratch after every kind of write`, async () => {
    await using t = await testApp({ engine });
    t.clock.set("2026-02-01T12:00:00Z");
    const u = await createUser(t.deps);
    const other = await createUser(t.deps);
    await movie(t, B + 1, {
      year: 1994,
      runtime: 120,
      genres: ["Drama", "Crime"],
      directors: ["Dee"],
      actors: ["Ex", "Why"],
    });
    await movie(t, B + 2, { year: 2001, runtime: 90, genres: ["Comedy"], actors: ["Ex"] });
    const ids: string[] = [];
    const log = async (who: TestUser, body: Record<string, unknown>) => {
      const res = await t.request("/api/diary", send(who, "POST", body));
      assert.equal(res.status, 201);
      const { entry } = await res.json();
      return entry.id as string;
    };
    for (
      const v of [
        { catalogId: B + 1, watchedOn: "2025-01-10", rating: 8 },
        { catalogId: B + 1, watchedOn: "2025-03-05", rating: 10 },
        { catalogId: B + 2, watchedOn: "2024-12-31", rating: 4 },
        { catalogId: B + 3, watchedOn: "2025-06-01" },
      ]
    ) ids.push(await log(u, v));
    await log(other, { catalogId: B + 1, watchedOn: "2025-02-02", rating: 2 });
    await (await t.request(
      "/api/watched",
      send(u, "POST", { catalogId: B + 4, watchedOn: "2025-07-04", rating: 7 }),
    )).body?.cancel();
    await (await t.request("/api/watched", send(u, "POST", { catalogId: B + 5 }))).body
      ?.cancel();
    await same(t, u, "logged");

    let res = await t.request(
      `/api/diary/${ids[1]}`,
      send(u, "PATCH", { watchedOn: "2024-03-05" }),
    );
    assert.equal(res.status, 200);
    await res.body?.cancel();
    await same(t, u, "moved to another year");
    res = await t.request(`/api/diary/${ids[0]}`, send(u, "PATCH", { rating: 3 }));
    await res.body?.cancel();
    await same(t, u, "re-rated");
    res = await t.request(`/api/diary/${ids[2]}`, { method: "DELETE", headers: u.headers });
    assert.equal(res.status, 204);
    await same(t, u, "removed (the watched row stays)");

    // Details arriving for a movie logged without them, and changing for another.
    await movie(t, B + 3, {
      year: 1987,
      runtime: 100,
      genres: ["Drama"],
      directors: ["Dee"],
      hasDetails: true,
    });
    await same(t, u, "details arrived");
    // Only the fetch itself changes (the details job storing what the light row already had).
    await movie(t, B + 2, {
      year: 2001,
      runtime: 90,
      genres: ["Comedy"],
      actors: ["Ex"],
      hasDetails: true,
    });
    await same(t, u, "details fetched, nothing else changed");
    await movie(t, B + 1, { year: 2011, runtime: 95, genres: ["Thriller"], actors: ["Zed"] });
    await same(t, u, "details changed");

    res = await t.request("/api/watched", send(u, "DELETE", { catalogId: B + 1 }));
    assert.equal(res.status, 200);
    await res.body?.cancel();
    await same(t, u, "left the watched list");
    await same(t, other, "another user's");

    await deleteAccount(t.deps, u.id);
    for (const table of ["user_stats_films", "user_stats_periods", "user_stats_tallies"]) {
      const [row] = await t.store.query<{ n: number }>(
        `select count(*)::int as n from public.${table} where user_id = $1`,
        [u.id],
      );
      assert.equal(row.n, 0, table);
    }
    await same(t, other, "after another account went");
  });
}
