/**
 * The cost curve of one user's history at 100, 1,000 and 10,000 movies (docs/lists.md): the
 * /watched page (HTML bytes and time to render) and a paged API read of 60, through
 * `app.request` in-process, each size's median against the 100-movie one measured in the same
 * run (rounds alternate between the sizes, so load on the shared machine hits them alike).
 * The store is the embedded one, or PostgreSQL when TEST_DATABASE_URL is set. Then a cached
 * `GET /api/recommend` against a 10-movie list read of the same user.
 */
import { FakeClock } from "../../lib/clock.ts";
import { testApp } from "../../tests/helpers/app.ts";
import { recommendWorld } from "../../tests/helpers/recommend_world.ts";
import { TEST_DATABASE_URL } from "../../tests/helpers/store.ts";
import { createUser } from "../../tests/helpers/users.ts";
import { sessionCookie } from "../../tests/helpers/web.ts";

const SIZES = [100, 1_000, 10_000];
const ROUNDS = 15;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn: () => Promise<Response>): Promise<{ ms: number; bytes: number }> {
  const start = performance.now();
  const res = await fn();
  const body = new Uint8Array(await res.arrayBuffer());
  const ms = performance.now() - start;
  if (res.status !== 200) throw new Error(`status ${res.status}`);
  return { ms, bytes: body.byteLength };
}

async function curve(): Promise<void> {
  await using app = await testApp({
    engine: TEST_DATABASE_URL ? "postgres" : "embedded",
    clock: new FakeClock("2026-06-01T12:00:00Z"),
    record: false,
    log: () => {},
  });
  await app.store.query(
    `insert into public.movies (catalog_id, title, original_title, year, runtime, genres,
       poster_path, overview, has_details)
     select g, 'Film number ' || g, 'Film number ' || g, 1950 + g % 70, 80 + g % 70,
       array['Drama', 'Comedy'], '/poster' || g || '.jpg', repeat('x', 300), true
       from generate_series(1, 10000) g
     on conflict (catalog_id) do nothing`,
  );
  const users = [];
  for (const size of SIZES) {
    const user = await createUser(app.deps, { email: `scale-${size}@example.test` });
    await app.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, created_at, rating, watched_on)
       select $1::uuid, g, timestamptz '2020-01-01' + g * interval '1 minute', 1 + g % 10,
         date '2020-01-01' + g % 2000
         from generate_series(1, $2::int) g`,
      [user.id, size],
    );
    users.push({ size, user, cookie: sessionCookie(user.token, user.email) });
  }
  const page: Record<number, number[]> = {};
  const api: Record<number, number[]> = {};
  const bytes: Record<number, number> = {};
  for (let round = 0; round < ROUNDS + 2; round++) {
    for (const { size, user, cookie } of users) {
      const p = await timed(() => app.request("/watched", { headers: { cookie } }));
      const a = await timed(() => app.request("/api/watched?limit=60", { headers: user.headers }));
      if (round < 2) continue; // warm-up
      (page[size] ??= []).push(p.ms);
      (api[size] ??= []).push(a.ms);
      bytes[size] = p.bytes;
    }
  }
  const store = TEST_DATABASE_URL ? "postgres" : "embedded";
  console.log(`store: ${store}, medians of ${ROUNDS} alternating rounds`);
  console.log("| movies | /watched bytes | /watched ms | ratio | paged read (60) ms | ratio |");
  console.log("| ------ | -------------- | ----------- | ----- | ------------------ | ----- |");
  for (const size of SIZES) {
    const p = median(page[size]);
    const a = median(api[size]);
    console.log(
      `| ${size} | ${bytes[size]} | ${p.toFixed(2)} | ${(p / median(page[100])).toFixed(2)} | ` +
        `${a.toFixed(2)} | ${(a / median(api[100])).toFixed(2)} |`,
    );
  }
}

async function cachedRecommend(): Promise<void> {
  await using w = await recommendWorld({ clock: new FakeClock() });
  const first = await w.get("/api/recommend");
  if (first.status !== 200) throw new Error(`first recommend: ${first.status}`);
  await first.body?.cancel();
  const rec: number[] = [];
  const list: number[] = [];
  for (let round = 0; round < 200 + 20; round++) {
    const r = await timed(() => w.get("/api/recommend"));
    const l = await timed(() => w.get("/api/watched"));
    if (round < 20) continue;
    rec.push(r.ms);
    list.push(l.ms);
  }
  const r = median(rec);
  const l = median(list);
  console.log(
    `cached recommend ${r.toFixed(3)} ms vs 10-movie list read ${l.toFixed(3)} ms: ` +
      `throughput ratio ${(l / r).toFixed(2)} (target >= 0.5)`,
  );
}

/** Both parts; `SCALE_ONLY=recommend` runs the cached recommend part alone. */
export default async function scale(): Promise<void> {
  if (Deno.env.get("SCALE_ONLY") !== "recommend") await curve();
  await cachedRecommend();
}
