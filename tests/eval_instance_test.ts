/**
 * `deno task eval --database-url` on a PostgreSQL database of its own (docs/recommend.md,
 * "Measuring recommendations"): only aggregate figures are printed, users with fewer than 20
 * rated films (or none rated 7 or more) are skipped, the held-out films are found, and the
 * instance is read by a role that may only read it, with nothing in it changed.
 */
import assert from "node:assert/strict";
import { migrate, readMigrations } from "@/lib/platform/store/migrate.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { openPostgresStore } from "@/lib/platform/store/postgres.ts";
import { loadConfig } from "@/lib/core/config.ts";
import { evaluate } from "@/scripts/eval/evaluate.ts";
import { jsonReport } from "@/scripts/eval/report.ts";
import { TEST_DATABASE_URL, testStore } from "./helpers/store.ts";
import { withDatabase } from "./helpers/store_templates.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** The people of the instance; none of it may appear in what the evaluation prints. */
const USERS = {
  alice: { id: crypto.randomUUID(), email: "alice-private@example.test" },
  bruno: { id: crypto.randomUUID(), email: "bruno-private@example.test" },
  chloe: { id: crypto.randomUUID(), email: "chloe-private@example.test" },
  dario: { id: crypto.randomUUID(), email: "dario-private@example.test" },
};

function day(n: number): string {
  return new Date(Date.UTC(2025, 0, 1) + n * 86_400_000).toISOString().slice(0, 10);
}

/**
 * 60 films, film 1 the most popular. Alice rated 1-5 a 9 most recently and 6-25 a 5 before:
 * popularity shows her 1-5 first (HR 1, NDCG 1). Dario rated 40-60 an 8, the latest 56-60:
 * popularity shows him 1-10 (no hit). Bruno has 19 rated films, Chloe none above 6: skipped.
 */
async function seed(store: Store): Promise<void> {
  await store.query(
    `insert into public.movies (catalog_id, title, original_title, year, genres, popularity,
       vote_average, vote_count, keywords, directors, actors, has_details)
     select g, 'Secret Title ' || g, 'Secret Title ' || g, 2000 + g % 20, array['Drama'],
            1000 - g, 7, 100, array['kw' || (g % 7)], array['Director ' || (g % 5)],
            array['Actor ' || g], true
       from generate_series(1, 60) g`,
  );
  for (const u of Object.values(USERS)) {
    await store.query(
      `insert into auth.users (id, aud, role, email, created_at, updated_at)
       values ($1, 'authenticated', 'authenticated', $2, now(), now())`,
      [u.id, u.email],
    );
  }
  const watch = (user: string, id: number, rating: number | null, on: string) =>
    store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, rating, watched_on, created_at)
       values ($1, $2, $3, $4, $4::date + interval '20 hours')`,
      [user, id, rating, on],
    );
  for (let id = 1; id <= 25; id++) {
    await watch(USERS.alice.id, id, id <= 5 ? 9 : 5, day(id <= 5 ? 600 + id : id));
  }
  await store.query(
    `insert into public.user_dismissed_movies (user_id, catalog_id) values ($1, 26)`,
    [USERS.alice.id],
  );
  for (let id = 30; id < 49; id++) await watch(USERS.bruno.id, id, 8, day(id));
  for (let id = 1; id <= 10; id++) await watch(USERS.bruno.id, id, null, day(id));
  for (let id = 1; id <= 22; id++) await watch(USERS.chloe.id, id, 5, day(id));
  for (let id = 40; id <= 60; id++) await watch(USERS.dario.id, id, 8, day(id));
}

/** What the instance holds, as one digest per table. */
async function digest(store: Store): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (
    const table of [
      "public.movies",
      "public.user_watched_movies",
      "public.user_dismissed_movies",
      "public.user_my_list",
      "public.recommendations",
      "public.recommend_feedback",
      "auth.users",
    ]
  ) {
    const [row] = await store.query<{ d: string | null }>(
      `select md5(string_agg(x::text, '|' order by x::text)) as d from ${table} x`,
    );
    out[table] = row.d ?? "empty";
  }
  return out;
}

async function runEval(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/eval.ts", ...args],
    cwd: ROOT,
    // No AI provider: the two rows of popularity and local.
    env: { AI_PROVIDERS: "", OPENAI_API_KEY: "", OPENAI_BASE_URL: "", AI_MODELS: "" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decode = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: output.code, stdout: decode(output.stdout), stderr: decode(output.stderr) };
}

Deno.test({
  name:
    "deno task eval --database-url prints aggregate figures only, skips users with fewer than 20 rated films, and leaves the instance as it was",
  ignore: !TEST_DATABASE_URL,
  async fn() {
    const suffix = crypto.randomUUID().slice(0, 8);
    const name = `movies_eval_${suffix}`;
    const reader = `movies_eval_reader_${suffix}`;
    const admin = openPostgresStore(TEST_DATABASE_URL!, { max: 1 });
    await admin.query(`create database ${name}`);
    const store = openPostgresStore(withDatabase(TEST_DATABASE_URL!, name), { max: 2 });
    try {
      await store.exec(`set statement_timeout = 0`);
      await migrate(store, await readMigrations());
      await seed(store);
      // A role that may read everything (row-level security would hide other users' rows) and
      // write nothing.
      await store.exec(
        `create role ${reader} login password 'reader' bypassrls;
         grant usage on schema public to ${reader};
         grant select on all tables in schema public to ${reader};`,
      );
      const url = new URL(withDatabase(TEST_DATABASE_URL!, name));
      url.username = reader;
      url.password = "reader";
      const before = await digest(store);

      const text = await runEval(["--database-url", url.href]);
      assert.equal(text.code, 0, text.stderr);
      const printed = text.stdout + text.stderr;
      for (
        const secret of [
          "Secret Title",
          "private@",
          "example.test",
          ...Object.values(USERS).map((u) => u.id),
        ]
      ) {
        assert.ok(!printed.includes(secret), `printed ${secret}`);
      }
      assert.match(
        text.stdout,
        /this instance: 60 movies, 4 users with a history, 97 watched films/,
      );
      assert.match(text.stdout, /2 users evaluated, 2 skipped \(fewer than 20 rated films/);
      assert.match(
        text.stdout,
        /\| popularity \| 2 \| 0\.500 \| 0\.500 \| [\d.]+% \| 0 \| 0 \| 0 \|/,
      );
      assert.match(text.stdout, /\| local \| 2 \| [\d.]+ \| [\d.]+ \| [\d.]+% \| 0 \| 0 \| 0 \|/);

      // The same in process, into the test's embedded template store: the figures as --json prints.
      await using copy = await testStore("embedded");
      const evaluation = await evaluate({
        databaseUrl: url.href,
        config: loadConfig({}),
        movies: 1,
        users: 1,
        seed: 1,
        aiUsers: 50,
        store: copy,
      });
      const json = { stdout: jsonReport(evaluation) };
      const result = JSON.parse(json.stdout);
      assert.deepEqual(
        { ...result.world },
        { kind: "instance", movies: 60, users: 4, evaluated: 2, skipped: 2, watched: 97 },
      );
      const popularity = result.rows.find((r: { recommender: string }) =>
        r.recommender === "popularity"
      );
      assert.equal(popularity.hr, 0.5);
      assert.equal(popularity.ndcg, 0.5);
      // Alice's dismissed film 26 is never shown: her picks after 1-5 are 27-31.
      assert.equal(popularity.leakage, 0);
      assert.equal(popularity.coverage, 15 / 60);
      assert.deepEqual(result.rows.map((r: { recommender: string }) => r.recommender), [
        "popularity",
        "local",
      ]);
      // The copy holds the history less the held-out films: Alice's 1-5 and Dario's 56-60.
      const [{ n }] = await copy.query<{ n: number }>(
        `select count(*)::int as n from public.user_watched_movies`,
      );
      assert.equal(n, 97 - 10);
      for (const secret of ["Secret Title", "private@", ...Object.values(USERS).map((u) => u.id)]) {
        assert.ok(!json.stdout.includes(secret), `printed ${secret}`);
      }

      assert.deepEqual(await digest(store), before);
    } finally {
      await store.close();
      await admin.exec(`set statement_timeout = 0`);
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.query(`drop role if exists ${reader}`);
      await admin.close();
    }
  },
});

Deno.test("deno task eval refuses a bad option with the usage line and exit code 2", async () => {
  for (const args of [["--users", "0"], ["--movies", "12x"], ["--seed", "-1"], ["--nope"]]) {
    const run = await runEval(args);
    assert.equal(run.code, 2, `${args.join(" ")}: ${run.stdout}${run.stderr}`);
    assert.match(run.stderr, /usage: deno task eval/);
    assert.equal(run.stdout, "");
  }
});
