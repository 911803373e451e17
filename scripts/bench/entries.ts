/**
 * GET /api/watched against the store's own hydration query, for lists of 10 and 1,000 movies,
 * and `?include=entry` (each card with its rating, date and note) against the bare read.
 */
import { testApp } from "@/tests/helpers/app.ts";
import { createUser } from "@/tests/helpers/users.ts";
import { startSession } from "@/lib/identity/auth/sessions.ts";
import { HYDRATE_SQL } from "@/lib/catalog/cards.ts";
import { issueAccessToken } from "@/tests/helpers/tokens.ts";

const ROUNDS = 200;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

// Alternating rounds, so a noisy neighbour on the machine slows both sides alike.
async function medians(
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
): Promise<[number, number]> {
  for (let i = 0; i < 10; i++) await a().then(b);
  const [as, bs]: number[][] = [[], []];
  for (let i = 0; i < ROUNDS; i++) {
    as.push(await timed(a));
    bs.push(await timed(b));
  }
  return [median(as), median(bs)];
}

/** Prints, per list size, the median times, their ratio and the queries per request. */
export default async function bench(): Promise<void> {
  await using t = await testApp({ record: false });
  for (const size of [10, 1000]) {
    const u = await createUser(t.deps);
    // A token of a real session, as a signed-in browser holds: the request checks it is live.
    const { sessionId } = await startSession(t.store, u.id, { now: t.clock.now() });
    const { token } = await issueAccessToken(t.deps, u, { sessionId });
    const headers = { authorization: `Bearer ${token}` };
    await t.store.query(
      `insert into public.movies (catalog_id, title, year, genres, runtime)
       select g, 'Movie ' || g, 2000, '{Drama}', 100 from generate_series(1, $1::int) g
       on conflict do nothing`,
      [size],
    );
    await t.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, created_at, rating, note)
       select $1, g, now() - g * interval '1 second', nullif(g % 11, 0),
              case when g % 3 = 0 then 'A note of a few words, as people write them.' end
         from generate_series(1, $2::int) g`,
      [u.id, size],
    );
    const ids = Array.from({ length: size }, (_, i) => i + 1);
    const hydrate = () => t.store.query(HYDRATE_SQL, [ids]);
    const read = (path: string) => async () => {
      const res = await t.request(path, { headers });
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
      // The whole body, as a client receives it; parsing it is the client's work.
      await res.text();
    };
    const get = read("/api/watched");
    const withEntry = read("/api/watched?include=entry");
    const before = t.store.stats.queries;
    await get();
    const queries = t.store.stats.queries - before;
    const [store, http] = await medians(hydrate, get);
    console.log(
      `list ${size}: GET /api/watched ${http.toFixed(2)} ms, store hydration ${
        store.toFixed(2)
      } ms, ` +
        `ratio ${(http / store).toFixed(2)}, queries per request ${queries}`,
    );
    const [bare, entries] = await medians(get, withEntry);
    console.log(
      `list ${size}: GET /api/watched?include=entry ${entries.toFixed(2)} ms, bare ${
        bare.toFixed(2)
      } ms, ratio ${(entries / bare).toFixed(2)}`,
    );
  }
}
