/** GET /api/watched against the store's own hydration query, for lists of 10 and 1,000 movies. */
import { testApp } from "../../tests/helpers/app.ts";
import { createUser } from "../../tests/helpers/users.ts";
import { HYDRATE_SQL } from "../../lib/lists/cards.ts";

const ROUNDS = 50;

async function median(fn: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 5; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

/** Prints, per list size, the median times, their ratio and the queries per request. */
export default async function bench(): Promise<void> {
  await using t = await testApp();
  for (const size of [10, 1000]) {
    const u = await createUser(t.deps);
    await t.store.query(
      `insert into public.movies (catalog_id, title, year, genres, runtime)
       select g, 'Movie ' || g, 2000, '{Drama}', 100 from generate_series(1, $1::int) g
       on conflict do nothing`,
      [size],
    );
    await t.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, created_at)
       select $1, g, now() - g * interval '1 second' from generate_series(1, $2::int) g`,
      [u.id, size],
    );
    const ids = Array.from({ length: size }, (_, i) => i + 1);
    const store = await median(() => t.store.query(HYDRATE_SQL, [ids]));
    const before = t.store.stats.queries;
    await (await t.request("/api/watched", { headers: u.headers })).body?.cancel();
    const queries = t.store.stats.queries - before;
    const http = await median(async () => {
      const res = await t.request("/api/watched", { headers: u.headers });
      await res.json();
    });
    console.log(
      `list ${size}: GET /api/watched ${http.toFixed(2)} ms, store hydration ${
        store.toFixed(2)
      } ms, ` +
        `ratio ${(http / store).toFixed(2)}, queries per request ${queries}`,
    );
  }
}
