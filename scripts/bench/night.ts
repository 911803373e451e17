/**
 * Movie nights (docs/nights.md) over 100,000 stored movies with features as TMDB gives them:
 * (1) the shortlist of a night of 8 members with 5,000 rated films each (the creator's start,
 * POST /api/nights/:id/start?reshuffle=1, p50 and p99), against a 60-film list read
 * (GET /api/watched?limit=60) in the same run; target p50 <= 200 ms on the embedded store.
 * (2) 200 members' event streams open at once (25 nights of 8): the memory they add, and how long
 * a vote's event takes to reach the 8 phones of its night against the vote's own answer.
 */
import { testApp } from "@/tests/helpers/app.ts";
import { FEATURE_MOVIES_SQL, pct, timed } from "./world/feature_movies.ts";
import { createUser, type TestUser } from "@/tests/helpers/users.ts";
import { startSession } from "@/lib/identity/auth/sessions.ts";
import { issueAccessToken } from "@/tests/helpers/tokens.ts";

const MOVIES = 100_000;
const RATED = 5_000;
const MEMBERS = 8;
const ROUNDS = 30;
const STREAM_NIGHTS = 25;
const MB = 1024 * 1024;

type App = Awaited<ReturnType<typeof testApp>>;

async function member(t: App): Promise<TestUser> {
  const u = await createUser(t.deps);
  const { sessionId } = await startSession(t.store, u.id, { now: t.clock.now() });
  const { token } = await issueAccessToken(t.deps, u, { sessionId });
  return { ...u, token, headers: { authorization: `Bearer ${token}` } };
}

async function call(t: App, u: TestUser, path: string, body?: unknown) {
  const res = await t.request(path, {
    method: body === undefined && !path.endsWith("/start") && !path.includes("?") ? "GET" : "POST",
    headers: {
      ...u.headers,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return await res.json();
}

/** A night of `users` (the first makes it): its id. */
async function night(t: App, users: TestUser[]): Promise<string> {
  const made = await call(t, users[0], "/api/nights", {});
  const token = new URL(made.joinUrl).searchParams.get("token");
  for (const u of users.slice(1)) await call(t, u, `/api/nights/${made.id}/join`, { token });
  return made.id;
}

async function shortlist(t: App) {
  const users: TestUser[] = [];
  for (let m = 0; m < MEMBERS; m++) {
    const u = await member(t);
    // Each member rates 5,000 films of their own stride, overlapping the others' in part.
    await t.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, created_at, rating)
       select $1, 1 + (g * (17 + 2 * $3::int)) % ${MOVIES}, now() - g * interval '1 minute',
              1 + (g * 7 + $3::int) % 10
         from generate_series(1, $2::int) g
       on conflict do nothing`,
      [u.id, RATED, m],
    );
    users.push(u);
  }
  const id = await night(t, users);
  const start = () => call(t, users[0], `/api/nights/${id}/start?reshuffle=1`);
  const list = async () => {
    const res = await t.request("/api/watched?limit=60", { headers: users[0].headers });
    await res.text();
  };
  for (let i = 0; i < 3; i++) await start().then(list);
  const [ss, ls]: number[][] = [[], []];
  for (let i = 0; i < ROUNDS; i++) {
    ss.push(await timed(start));
    ls.push(await timed(list));
  }
  const s50 = pct(ss, 0.5);
  const l50 = pct(ls, 0.5);
  console.log(
    `shortlist (${MEMBERS} members x ${RATED} rated, ${MOVIES} movies): p50 ${
      s50.toFixed(0)
    } ms, ` +
      `p99 ${pct(ss, 0.99).toFixed(0)} ms; 60-film list read p50 ${l50.toFixed(1)} ms; ratio ` +
      `${(s50 / l50).toFixed(1)} (target: p50 <= 200 ms)`,
  );
}

async function streams(t: App) {
  const nights: { id: string; users: TestUser[]; film: number }[] = [];
  for (let n = 0; n < STREAM_NIGHTS; n++) {
    const users: TestUser[] = [];
    for (let m = 0; m < MEMBERS; m++) users.push(await member(t));
    const id = await night(t, users);
    const started = await call(t, users[0], `/api/nights/${id}/start`);
    nights.push({ id, users, film: started.shortlist[0].catalogId });
  }
  const decoder = new TextDecoder();
  (globalThis as { gc?: () => void }).gc?.();
  const before = Deno.memoryUsage();
  // Each phone's reader resolves `heard` when a vote event arrives.
  const phones: { night: number; heard: () => Promise<number>; cancel: () => Promise<void> }[] = [];
  for (const [n, ni] of nights.entries()) {
    for (const u of ni.users) {
      const res = await t.request(`/api/nights/${ni.id}/events`, { headers: u.headers });
      if (res.status !== 200) throw new Error(`stream answered ${res.status}`);
      const reader = res.body!.getReader();
      phones.push({
        night: n,
        async heard() {
          let text = "";
          while (!text.includes("event: vote")) {
            const { value, done } = await reader.read();
            if (done) throw new Error("stream ended");
            text += decoder.decode(value);
          }
          return performance.now();
        },
        cancel: () => reader.cancel(),
      });
    }
  }
  (globalThis as { gc?: () => void }).gc?.();
  const after = Deno.memoryUsage();
  const open = phones.length;
  // PGlite's memory is external and moves with the store's reads: the JS heap is the streams'.
  console.log(
    `${open} streams open: RSS +${((after.rss - before.rss) / MB).toFixed(1)} MB, JS heap +${
      ((after.heapUsed - before.heapUsed) / MB).toFixed(2)
    } MB (${((after.heapUsed - before.heapUsed) / 1024 / open).toFixed(1)} KB a stream)`,
  );
  const latencies: number[] = [];
  const answers: number[] = [];
  for (const [n, ni] of nights.entries()) {
    const listening = phones.filter((p) => p.night === n).map((p) => p.heard());
    const sent = performance.now();
    await call(t, ni.users[1], `/api/nights/${ni.id}/votes`, { catalogId: ni.film, vote: "yes" });
    answers.push(performance.now() - sent);
    for (const at of await Promise.all(listening)) latencies.push(at - sent);
  }
  const e50 = pct(latencies, 0.5);
  const a50 = pct(answers, 0.5);
  console.log(
    `a vote's event to its night's 8 phones (${latencies.length} deliveries, all ${open} streams ` +
      `open): p50 ${e50.toFixed(1)} ms, p99 ${pct(latencies, 0.99).toFixed(1)} ms; the vote's ` +
      `own answer p50 ${a50.toFixed(1)} ms; ratio ${(e50 / a50).toFixed(2)}`,
  );
  for (const p of phones) await p.cancel();
}

/** Prints the shortlist's latency and the streams' memory and event latency. */
export default async function bench(): Promise<void> {
  await using t = await testApp({ record: false });
  const start = performance.now();
  await t.store.query(FEATURE_MOVIES_SQL, [MOVIES]);
  console.log(`seeded ${MOVIES} movies in ${((performance.now() - start) / 1000).toFixed(1)} s`);
  await shortlist(t);
  await streams(t);
}
