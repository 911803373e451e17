/**
 * The cost curve of one user's history at 100, 1,000 and 10,000 movies (docs/entries.md), on the
 * embedded store and, when LOAD_DATABASE_URL (or TEST_DATABASE_URL) is set, on PostgreSQL too:
 * the /watched page (HTML bytes and time to render), a paged API read of 60, the unpaged
 * interface read (`GET /api/watched`, the whole list) and the exports (`GET /api/export` as
 * JSON, and the watched list as CSV), through `app.request` in-process, each size's median
 * against the 100-movie one measured in the same run (rounds alternate between the sizes, each
 * round starting with another, so load on the shared machine hits them alike). Then a cached `GET /api/recommend` against a
 * 10-movie list read of the same user. SCALE_ROUNDS sets the rounds (11 by default);
 * SCALE_STORES=postgres (or embedded) runs the curve on that store alone.
 */
import { FakeClock } from "@/lib/core/clock.ts";
import { migrate, readMigrations } from "@/lib/platform/store/migrate.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { openPostgresStore } from "@/lib/platform/store/postgres.ts";
import { testApp } from "@/tests/helpers/app.ts";
import { recommendWorld } from "@/tests/helpers/recommend_world.ts";
import { createUser, type TestUser } from "@/tests/helpers/users.ts";
import { sessionCookie } from "@/tests/helpers/web.ts";

const SIZES = [100, 1_000, 10_000];
const ROUNDS = Number(Deno.env.get("SCALE_ROUNDS") ?? 11);
const DATABASE_URL = Deno.env.get("LOAD_DATABASE_URL") || Deno.env.get("TEST_DATABASE_URL");

// The bench's movies sit far above the ids tests use: PostgreSQL keeps them between runs.
const FIRST_ID = 1_950_000_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn: () => Promise<Response>): Promise<{ ms: number; bytes: number }> {
  const start = performance.now();
  const res = await fn();
  const body = new Uint8Array(await res.arrayBuffer());
  const ms = performance.now() - start;
  if (res.status !== 200) throw new Error(`status ${res.status}`);
  return { ms, bytes: body.byteLength };
}

/** The reads of the curve, each a request of one user. */
const READS: { name: string; path: string; page?: boolean }[] = [
  { name: "/watched page", path: "/watched", page: true },
  { name: "paged read (60)", path: "/api/watched?limit=60" },
  { name: "unpaged read", path: "/api/watched" },
  { name: "export JSON", path: "/api/export" },
  { name: "export CSV (watched)", path: "/api/export?format=csv&list=watched" },
];

async function openStore(engine: "embedded" | "postgres") {
  if (engine === "embedded") return undefined;
  // Seeding 10,000 movies and films runs every trigger: more than a request's deadline.
  const store = openPostgresStore(DATABASE_URL!, { max: 10, timeoutMs: 600_000 });
  await migrate(store, await readMigrations());
  return store;
}

async function curve(engine: "embedded" | "postgres"): Promise<void> {
  const own = await openStore(engine);
  try {
    await curveOn(engine, own);
  } finally {
    // The app leaves a store it was given open: its pool would keep the process alive.
    await own?.close();
  }
}

async function curveOn(engine: "embedded" | "postgres", store?: Store): Promise<void> {
  await using app = await testApp({
    engine: "embedded",
    store,
    clock: new FakeClock("2026-06-01T12:00:00Z"),
    record: false,
    log: () => {},
  });
  await app.store.query(
    `insert into public.movies (catalog_id, title, original_title, year, runtime, genres,
       poster_path, overview, has_details)
     select $1::int + g, 'Film number ' || g, 'Film number ' || g, 1950 + g % 70, 80 + g % 70,
       array['Drama', 'Comedy'], '/poster' || g || '.jpg', repeat('x', 300), true
       from generate_series(1, 10000) g
     on conflict (catalog_id) do nothing`,
    [FIRST_ID],
  );
  const users: { size: number; user: TestUser; cookie: string }[] = [];
  for (const size of SIZES) {
    const user = await createUser(app.deps, { email: `scale-${size}-${Date.now()}@example.test` });
    await app.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, created_at, rating, watched_on)
       select $1::uuid, $3::int + g, timestamptz '2020-01-01' + g * interval '1 minute', 1 + g % 10,
         date '2020-01-01' + g % 2000
         from generate_series(1, $2::int) g`,
      [user.id, size, FIRST_ID],
    );
    users.push({ size, user, cookie: sessionCookie(user.token, user.email) });
  }
  if (engine === "postgres") await app.store.query("analyze");
  const ms: Record<string, Record<number, number[]>> = {};
  const bytes: Record<string, Record<number, number>> = {};
  try {
    for (let round = 0; round < ROUNDS + 2; round++) {
      // Each round starts with another size, so the one after the largest reads (and its
      // garbage) is not always the same.
      const order = users.map((_, i) => users[(i + round) % users.length]);
      for (const { size, user, cookie } of order) {
        for (const read of READS) {
          const headers = read.page ? { cookie } : user.headers;
          const r = await timed(() => app.request(read.path, { headers }));
          if (round < 2) continue; // warm-up
          ((ms[read.name] ??= {})[size] ??= []).push(r.ms);
          (bytes[read.name] ??= {})[size] = r.bytes;
        }
      }
    }
  } finally {
    // PostgreSQL keeps its rows between runs: the bench's users go (their rows by cascade).
    await app.store.query(`delete from auth.users where id = any ($1::uuid[])`, [
      users.map((u) => u.user.id),
    ]);
  }
  console.log(`\nstore: ${engine}, medians of ${ROUNDS} alternating rounds`);
  console.log("| read | movies | bytes | ms | ratio to 100 |");
  console.log("| ---- | ------ | ----- | -- | ------------ |");
  for (const read of READS) {
    const base = median(ms[read.name][100]);
    for (const size of SIZES) {
      const m = median(ms[read.name][size]);
      console.log(
        `| ${read.name} | ${size.toLocaleString("en")} | ` +
          `${bytes[read.name][size].toLocaleString("en")} | ${m.toFixed(1)} | ` +
          `${(m / base).toFixed(2)} |`,
      );
    }
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
  if (Deno.env.get("SCALE_ONLY") !== "recommend") {
    const stores = (Deno.env.get("SCALE_STORES") ?? "embedded,postgres").split(",");
    if (stores.includes("embedded")) await curve("embedded");
    if (stores.includes("postgres") && DATABASE_URL) await curve("postgres");
    else if (stores.includes("postgres")) console.log("\nSKIP PostgreSQL: set LOAD_DATABASE_URL");
  }
  await cachedRecommend();
}
