/**
 * The availability job and "Available to me" (docs/availability.md): a run over 10,000 My List
 * entries of 1,000 users holding 2,000 distinct movies (calls against distinct movies, calls per
 * window against the shared 40), the same job on the real clock against a 50 ms fake (calls per
 * wall-clock second), and GET /api/mylist?available=mine at 1,000 entries against the plain read.
 */
import { systemClock } from "@/lib/core/clock.ts";
import { startSession } from "@/lib/identity/auth/sessions.ts";
import { type TestApp, testApp } from "@/tests/helpers/app.ts";
import { NETFLIX, P, PRIME, regionOffers } from "@/tests/helpers/availability_world.ts";
import { detailBody, startFakeTmdb, tmdbEnv } from "@/tests/helpers/fake_tmdb.ts";
import { FakeClock } from "@/lib/core/clock.ts";
import { issueAccessToken } from "@/tests/helpers/tokens.ts";
import { createUser } from "@/tests/helpers/users.ts";

const ROUNDS = Number(Deno.env.get("AVAILABILITY_BENCH_ROUNDS") ?? 200);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

// Movies 1..n with old providers (nothing on Netflix), users each saving 10 of them.
async function seed(t: TestApp, options: { movies: number; users: number; at: number }) {
  const old = JSON.stringify({ US: regionOffers({ flatrate: [PRIME] }) });
  await t.store.query(
    `insert into public.movies (catalog_id, title, has_details, runtime, watch_providers,
       providers_cached_at)
     select g, 'Movie ' || g, true, 100, $2::text::jsonb, $3 from generate_series(1, $1::int) g
     on conflict do nothing`,
    [options.movies, old, new Date(options.at - 3 * 86_400_000).toISOString()],
  );
  await t.store.query(
    `insert into auth.users (id, aud, role, email, created_at, updated_at)
     select gen_random_uuid(), 'authenticated', 'authenticated', 'bench' || g || '@x.test',
       now(), now() from generate_series(1, $1::int) g`,
    [options.users],
  );
  await t.store.query(
    `insert into public.user_services (user_id, region, provider_ids)
     select id, 'US', array[$1::int] from auth.users where email like 'bench%@x.test'`,
    [P(8)],
  );
  await t.store.query(
    `insert into public.user_my_list (user_id, catalog_ids)
     select u.id, array(select 1 + ((u.n * 2 + k) % $1::int) from generate_series(0, 9) k)
       from (select id, row_number() over (order by email) as n from auth.users
              where email like 'bench%@x.test') u`,
    [options.movies],
  );
}

async function jobRun(
  name: string,
  options: { clock: "fake" | "real"; movies: number; users: number; budget: number },
) {
  await using fake = await startFakeTmdb({ latencyMs: options.clock === "real" ? 50 : 0 });
  const clock = options.clock === "real" ? systemClock : new FakeClock("2026-11-01T04:00:00Z");
  const sent: number[] = [];
  await using t = await testApp({
    record: false,
    clock,
    env: { ...tmdbEnv(fake), AVAILABILITY_BUDGET: String(options.budget) },
    fetch: (input, init) => {
      sent.push(clock.now());
      return fetch(input, init);
    },
  });
  for (let id = 1; id <= options.movies; id++) {
    fake.movies.set(
      id,
      detailBody(id, {
        "watch/providers": { results: { US: regionOffers({ flatrate: [NETFLIX] }) } },
      }),
    );
  }
  await seed(t, { movies: options.movies, users: options.users, at: clock.now() });
  const started = performance.now();
  const outcome = await (await t.services.availability.start()).done;
  const wall = (performance.now() - started) / 1000;
  const windows = new Map<number, number>();
  for (const at of sent) {
    windows.set(Math.floor(at / 1000), (windows.get(Math.floor(at / 1000)) ?? 0) + 1);
  }
  const counts = [...windows.values()];
  // Every window but the last (the tail), as the import benchmark counts.
  const full = counts.slice(0, -1);
  const mean = full.length ? full.reduce((a, b) => a + b, 0) / full.length : counts[0];
  console.log(
    `${name}: ${options.users * 10} entries, ${options.users} users, ${options.movies} movies; ` +
      `TMDB calls ${sent.length} (distinct movies refreshed ${outcome.moviesRefreshed}), ` +
      `notifications ${outcome.notifications}; calls per window max ${Math.max(...counts)}, mean ` +
      `${mean.toFixed(1)} = ${(mean / 40).toFixed(3)} of the 40/s window; ${wall.toFixed(1)} s`,
  );
}

async function listRead() {
  await using t = await testApp({ record: false });
  const u = await createUser(t.deps);
  const { sessionId } = await startSession(t.store, u.id, { now: t.clock.now() });
  const { token } = await issueAccessToken(t.deps, u, { sessionId });
  const headers = { authorization: `Bearer ${token}` };
  // 1,000 saved movies, each with 95 regions of providers (the real fixture's shape); half of
  // them stream on Netflix in the US.
  const rich = detailBody(1)["watch/providers"] as { results: Record<string, unknown> };
  const on = JSON.stringify({ ...rich.results, US: regionOffers({ flatrate: [NETFLIX, PRIME] }) });
  const off = JSON.stringify({ ...rich.results, US: regionOffers({ rent: [NETFLIX] }) });
  await t.store.query(
    `insert into public.movies (catalog_id, title, year, genres, runtime, watch_providers)
     select g, 'Movie ' || g, 2000, '{Drama}', 100,
       (case when g % 2 = 0 then $1 else $2 end)::text::jsonb from generate_series(1, 1000) g`,
    [on, off],
  );
  await t.store.query(
    `insert into public.user_my_list (user_id, catalog_ids)
     values ($1, array(select generate_series(1, 1000)))`,
    [u.id],
  );
  await t.store.query(
    `insert into public.user_services (user_id, region, provider_ids) values ($1, 'US', $2)`,
    [u.id, [P(8)]],
  );
  const read = (path: string) => async () => {
    const res = await t.request(path, { headers });
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}`);
    await res.text();
  };
  const plain = read("/api/mylist");
  for (
    const [label, path] of [
      ["available=mine", "/api/mylist?available=mine"],
      ["include=availability", "/api/mylist?include=availability"],
    ]
  ) {
    const other = read(path);
    for (let i = 0; i < 10; i++) await plain().then(other);
    const [as, bs]: number[][] = [[], []];
    for (let i = 0; i < ROUNDS; i++) {
      as.push(await timed(plain));
      bs.push(await timed(other));
    }
    const [a, b] = [median(as), median(bs)];
    console.log(
      `GET /api/mylist?${label} at 1,000 entries ${b.toFixed(2)} ms, plain ${a.toFixed(2)} ms, ` +
        `ratio ${(b / a).toFixed(2)}`,
    );
  }
}

/** Prints the figures. */
export default async function bench(): Promise<void> {
  // AVAILABILITY_BENCH=list runs the list figure alone (the job runs take minutes).
  if (Deno.env.get("AVAILABILITY_BENCH") === "list") return await listRead();
  await jobRun("job (fake clock)", { clock: "fake", movies: 2000, users: 1000, budget: 2000 });
  await jobRun("job (real clock, 50 ms fake)", {
    clock: "real",
    movies: 200,
    users: 100,
    budget: 200,
  });
  await listRead();
}
