/**
 * The diary at 100, 1,000 and 10,000 viewings: GET /api/stats?year=, a diary page of 50
 * (GET /api/diary), the year-in-review page (/stats/2025) and the diary page itself (/diary, 60
 * entries a page, and its second page), each reported as the ratio of its median time to the
 * same request's at 100 viewings (targets: stats at most 3x, a page of 50 at most 1.5x, the
 * /diary page at most 1.5x and under 250 KB), measured in the same run; pages with their bytes.
 */
import { testApp } from "@/tests/helpers/app.ts";
import { createUser } from "@/tests/helpers/users.ts";
import { sessionCookie } from "@/tests/helpers/web.ts";

const ROUNDS = 40;
const SIZES = [100, 1000, 10000];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

/** Prints each request's median per size and its ratio to the 100-viewing one. */
export default async function bench(): Promise<void> {
  await using t = await testApp({ record: false });
  // Movies with details, so genres, directors and actors have something to count.
  await t.store.query(
    `insert into public.movies (catalog_id, title, year, genres, runtime, directors, actors,
       has_details)
     select g, 'Movie ' || g, 1950 + g % 70, array['Drama', 'Genre ' || g % 15], 90 + g % 60,
            array['Director ' || g % 400], array['Actor ' || g % 900, 'Actor ' || g % 700], true
       from generate_series(1, 5000) g
     on conflict (catalog_id) do nothing`,
  );
  const requests: Record<string, (headers: Record<string, string>) => Promise<number>> = {
    "GET /api/stats?year=2025": (h) => read("/api/stats?year=2025", h),
    "GET /api/diary (50)": (h) => read("/api/diary?limit=50", h),
    "/stats/2025 page": (h) => read("/stats/2025", h),
    "/diary page (60)": (h) => read("/diary", h),
    "/diary?page=2": (h) => read("/diary?page=2", h),
  };
  // The answer's size in bytes.
  async function read(path: string, headers: Record<string, string>): Promise<number> {
    const res = await t.request(path, { headers });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    return (await res.arrayBuffer()).byteLength;
  }
  // Every size is loaded first and the rounds alternate between them, so a noisy neighbour on
  // the shared machine slows each size alike (measured one size after the other, the load of
  // the moment decided the ratio).
  const users: Record<string, string>[] = [];
  for (const size of SIZES) {
    const u = await createUser(t.deps);
    const films = Math.max(1, size / 2);
    await t.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, watched_on)
       select $1, g, date '2025-12-31' from generate_series(1, $2::int) g`,
      [u.id, films],
    );
    // Two viewings a film on average, spread over 2024 and 2025, most rated.
    await t.store.query(
      `insert into public.user_viewings
         (user_id, catalog_id, watched_on, rating, rewatch, source, created_at)
       select $1, 1 + g % $2::int, date '2024-01-01' + (g % 730), nullif(g % 11, 0),
              g > $2::int, 'manual', now() - g * interval '1 second'
         from generate_series(1, $3::int) g
       on conflict do nothing`,
      [u.id, films, size],
    );
    users.push({ ...u.headers, cookie: sessionCookie(u.token, u.email) });
  }
  // As autovacuum would after a bulk load on PostgreSQL (the embedded engine has none).
  await t.store.query(`analyze`);
  const results = new Map<string, number[]>();
  const sizes = new Map<string, number[]>();
  for (const [name, run] of Object.entries(requests)) {
    for (const headers of users) for (let i = 0; i < 5; i++) await run(headers);
    if (!name.startsWith("GET")) sizes.set(name, await Promise.all(users.map(run)));
    const times: number[][] = users.map(() => []);
    for (let i = 0; i < ROUNDS; i++) {
      for (const [k, headers] of users.entries()) times[k].push(await timed(() => run(headers)));
    }
    results.set(name, times.map(median));
  }
  for (const [name, times] of results) {
    const base = times[0];
    console.log(
      `${name}: ` +
        SIZES.map((s, i) =>
          `${s} viewings ${times[i].toFixed(2)} ms (${(times[i] / base).toFixed(2)}x)`
        )
          .join(", "),
    );
  }
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  for (const [name, bytes] of sizes) {
    console.log(
      `${name} bytes: ` + SIZES.map((s, i) => `${s} viewings ${kb(bytes[i])}`).join(", "),
    );
  }
}
