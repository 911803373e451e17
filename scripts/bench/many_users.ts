/**
 * Many users (issue 29): one user's list read on a PostgreSQL database of 100,000 users with
 * 100 watched movies each (10 million rows, seeded by SQL; scripts/load/many_users_seed.ts)
 * against the same read on a database holding only that user, each behind its own instance of
 * the app built as main.ts builds it, in-process through `app.request`. Rounds alternate
 * between the two (and which goes first), medians; target: ≤ 1.5x. The reads: the unpaged
 * interface read `GET /api/watched`, a paged `?limit=60` and the /watched page.
 *
 * The database is BENCH_DATABASE_URL, LOAD_DATABASE_URL or TEST_DATABASE_URL; its seed is
 * reused when complete (MANY_USERS_RESEED=1 drops and seeds it afresh). The one-user database
 * is `<name>_one` on the same server, made afresh each run.
 */
import { FakeClock } from "@/lib/core/clock.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { openPostgresStore } from "@/lib/platform/store/postgres.ts";
import { type TestApp, testApp } from "@/tests/helpers/app.ts";
import { issueAccessToken } from "@/tests/helpers/tokens.ts";
import { sessionCookie } from "@/tests/helpers/web.ts";
import {
  databaseUrl,
  dropDatabase,
  ensureDatabase,
  MEASURED,
  seedDatabase,
} from "../load/many_users_seed.ts";

const ROUNDS = 101;
const WARM_UP = 5;
const TARGET = 1.5;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

interface Read {
  label: string;
  path: string;
  page: boolean;
}

const READS: Read[] = [
  { label: "`GET /api/watched` (unpaged, 100)", path: "/api/watched", page: false },
  { label: "`GET /api/watched?limit=60`", path: "/api/watched?limit=60", page: false },
  { label: "/watched page", path: "/watched", page: true },
];

interface Statement {
  text: string;
  params: unknown[];
}

interface Instance {
  name: string;
  app: TestApp;
  store: Store;
  /** The last statement the app ran through `store.query` (the list read's own). */
  last: Statement;
  headers: Record<string, string>;
  cookie: string;
  close(): Promise<void>;
}

async function instance(name: string, url: string): Promise<Instance> {
  const store = openPostgresStore(url, { max: 4 });
  const last: Statement = { text: "", params: [] };
  const seen: Store = {
    ...store,
    query(text, params) {
      last.text = text;
      last.params = params ?? [];
      return store.query(text, params);
    },
  };
  const app = await testApp({
    engine: "postgres",
    store: seen,
    clock: new FakeClock("2026-06-01T12:00:00Z"),
    record: false,
    log: () => {},
  });
  const { token } = await issueAccessToken(app.deps, MEASURED);
  return {
    name,
    app,
    store,
    last,
    headers: { authorization: `Bearer ${token}` },
    cookie: sessionCookie(token, MEASURED.email),
    async close() {
      await app[Symbol.asyncDispose]();
      await store.close();
    },
  };
}

async function timed(target: Instance, read: Read): Promise<{ ms: number; body: string }> {
  const headers = read.page ? { cookie: target.cookie } : target.headers;
  const start = performance.now();
  const res = await target.app.request(read.path, { headers });
  const body = await res.text();
  const ms = performance.now() - start;
  if (res.status !== 200) throw new Error(`${target.name} ${read.path}: ${res.status} ${body}`);
  return { ms, body };
}

async function counts(url: string): Promise<string> {
  const store = openPostgresStore(url, { max: 1, timeoutMs: 120_000 });
  try {
    const [row] = await store.query<{ users: number; rows: number; mb: string }>(
      `select (select count(*) from auth.users)::int as users,
              (select reltuples::bigint from pg_class
                where oid = 'public.user_watched_movies'::regclass)::int as rows,
              pg_size_pretty(pg_total_relation_size('public.user_watched_movies')) as mb`,
    );
    return `${row.users} users, ~${row.rows} watched rows (${row.mb} with indexes)`;
  } finally {
    await store.close();
  }
}

/** Seeds (or reuses) both databases, then measures and prints the table. */
export default async function manyUsers(): Promise<void> {
  const url = Deno.env.get("BENCH_DATABASE_URL") || Deno.env.get("LOAD_DATABASE_URL") ||
    Deno.env.get("TEST_DATABASE_URL");
  if (!url) {
    console.log("many users: skipped (set BENCH_DATABASE_URL or LOAD_DATABASE_URL)");
    return;
  }
  const name = decodeURIComponent(new URL(url).pathname.slice(1));
  const oneName = `${name}_one`;
  const oneUrl = databaseUrl(url, oneName);
  if (Deno.env.get("MANY_USERS_RESEED") === "1") await dropDatabase(url, name);
  await ensureDatabase(url, name);
  console.log(`${name}: ${await seedDatabase(url, { all: true })}`);
  await dropDatabase(url, oneName);
  await ensureDatabase(url, oneName);
  console.log(`${oneName}: ${await seedDatabase(oneUrl, { all: false })}`);
  console.log(`${name}: ${await counts(url)}; ${oneName}: ${await counts(oneUrl)}`);

  const many = await instance("many", url);
  const one = await instance("one", oneUrl);
  try {
    const times = new Map<string, number[]>();
    for (let round = 0; round < ROUNDS + WARM_UP; round++) {
      // Which instance goes first alternates too, so neither always follows the other.
      const order = round % 2 ? [many, one] : [one, many];
      const bodies: Record<string, string> = {};
      for (const read of READS) {
        for (const target of order) {
          const { ms, body } = await timed(target, read);
          bodies[target.name] = body;
          if (round >= WARM_UP) {
            const key = `${target.name} ${read.path}`;
            times.set(key, [...times.get(key) ?? [], ms]);
          }
        }
        // Both instances must answer the same list, or the comparison means nothing.
        if (round === 0 && !read.page && bodies.many !== bodies.one) {
          throw new Error(`the two databases answer ${read.path} differently`);
        }
      }
    }
    console.log(`medians of ${ROUNDS} alternating rounds after ${WARM_UP} warm-up rounds`);
    console.log("| read | 100,000 users ms | one user ms | ratio | target |");
    console.log("| ---- | ---------------- | ----------- | ----- | ------ |");
    for (const read of READS) {
      const m = median(times.get(`many ${read.path}`)!);
      const o = median(times.get(`one ${read.path}`)!);
      const ratio = m / o;
      console.log(
        `| ${read.label} | ${m.toFixed(2)} | ${o.toFixed(2)} | ${ratio.toFixed(2)} | ` +
          `≤ ${TARGET}x: ${ratio <= TARGET ? "met" : "missed"} |`,
      );
    }
    const plans = await statementsAlone(many, one);
    console.log(plans.join("\n"));
  } finally {
    await many.close();
    await one.close();
  }
}

/**
 * Each API read's statement alone on both databases (alternating, medians), and its plan with
 * buffers on each: what the database adds, apart from the app's own work.
 */
async function statementsAlone(many: Instance, one: Instance): Promise<string[]> {
  const plans: string[] = [];
  for (const read of READS.filter((r) => !r.page)) {
    const res = await many.app.request(read.path, { headers: many.headers });
    await res.body?.cancel();
    const { text, params } = { ...many.last };
    const times: Record<string, number[]> = { many: [], one: [] };
    for (let round = 0; round < ROUNDS + WARM_UP; round++) {
      for (const target of round % 2 ? [many, one] : [one, many]) {
        const start = performance.now();
        await target.store.query(text, params);
        if (round >= WARM_UP) times[target.name].push(performance.now() - start);
      }
    }
    const m = median(times.many);
    const o = median(times.one);
    console.log(
      `| ${read.label}: its statement alone | ${m.toFixed(2)} | ${o.toFixed(2)} | ` +
        `${(m / o).toFixed(2)} | (context) |`,
    );
    for (const target of [many, one]) {
      const plan = await target.store.query(`explain (analyze, buffers) ${text}`, params);
      const lines = plan.map((row) => String(Object.values(row)[0]).trim());
      const join = lines.find((l) => /Nested Loop|Hash.*Join|Merge.*Join/.test(l));
      const time = lines.find((l) => l.startsWith("Execution Time"));
      const buffers = lines.find((l) => l.startsWith("Buffers:"));
      plans.push(`- ${read.path} on ${target.name}: ${time}; ${buffers}; ${join}`);
    }
  }
  return plans;
}
