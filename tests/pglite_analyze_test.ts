/**
 * The embedded store analyzes what changed (lib/platform/store/pglite_analyze.ts): PGlite has no
 * autovacuum, and without statistics a page of a long list was read by sorting all of it.
 */
import assert from "node:assert/strict";
import { PGlite } from "@electric-sql/pglite";
import { autoAnalyze, STATISTICS_TARGET } from "../lib/platform/store/pglite_analyze.ts";

Deno.test("a table changed by more than 50 rows and 10% is analyzed after the next call; an unchanged one is not", async () => {
  const db = await PGlite.create();
  try {
    await db.exec(`create table grown (id int primary key);
      create table small (id int primary key);
      insert into grown select g from generate_series(1, 1000) g;
      insert into small select g from generate_series(1, 10) g;`);
    // The counters reach the statistics views at most once a second, unless asked.
    const flush = () => db.query("select pg_stat_force_next_flush()");
    const analyzed = async () => {
      await flush();
      return (await db.query<{ relname: string }>(
        `select relname from pg_stat_user_tables
          where last_analyze is not null order by relname`,
      )).rows.map((r) => r.relname);
    };
    assert.deepEqual(await analyzed(), []);
    await autoAnalyze(db, { everyMs: 0 })();
    assert.deepEqual(await analyzed(), ["grown"]);
    const [stats] = (await db.query<{ n: number }>(
      `select reltuples::int as n from pg_class where relname = 'grown'`,
    )).rows;
    assert.equal(stats.n, 1000);
  } finally {
    await db.close();
  }
});

Deno.test("an import's unmatched report is never analyzed, however much it grew", async () => {
  const db = await PGlite.create();
  try {
    await db.exec(`create table public.history_import_unmatched (ord int primary key);
      create table public.watched (id int primary key);
      insert into public.history_import_unmatched select g from generate_series(1, 1000) g;
      insert into public.watched select g from generate_series(1, 1000) g;`);
    await db.query("select pg_stat_force_next_flush()");
    await autoAnalyze(db, { everyMs: 0 })();
    await db.query("select pg_stat_force_next_flush()");
    const rows = (await db.query<{ relname: string }>(
      `select relname from pg_stat_user_tables where last_analyze is not null order by relname`,
    )).rows;
    assert.deepEqual(rows.map((r) => r.relname), ["watched"]);
  } finally {
    await db.close();
  }
});

const upkeep = async (db: PGlite) => {
  await db.query("select pg_stat_force_next_flush()");
  const [row] = (await db.query<{ vacuumed: boolean; analyzed: string | null; dead: number }>(
    `select last_vacuum is not null as vacuumed, last_analyze::text as analyzed,
            n_dead_tup::int as dead
       from pg_stat_user_tables where relname = 'churn'`,
  )).rows;
  return row;
};

Deno.test("a table with more than 50 rows + 20% dead is vacuumed, so rewrites never pile up", async () => {
  const db = await PGlite.create();
  try {
    await db.exec(`create table churn (id int primary key, n int);
      insert into churn select g, 0 from generate_series(1, 1000) g;
      update churn set n = 1 where id <= 600;`);
    assert.equal((await upkeep(db)).dead, 600);
    await autoAnalyze(db, { everyMs: 0 })();
    const after = await upkeep(db);
    assert.equal(after.vacuumed, true);
    assert.equal(after.dead, 0);
    assert.notEqual(after.analyzed, null);
  } finally {
    await db.close();
  }
});

Deno.test("a table kept up within the last minute is left alone however much it changed since", async () => {
  const db = await PGlite.create();
  try {
    await db.exec(`create table churn (id int primary key, n int);
      insert into churn select g, 0 from generate_series(1, 1000) g;`);
    await db.query("select pg_stat_force_next_flush()");
    await autoAnalyze(db, { everyMs: 0 })();
    const first = (await upkeep(db)).analyzed;
    assert.notEqual(first, null);
    await db.exec(`insert into churn select g, 0 from generate_series(1001, 5000) g`);
    await db.query("select pg_stat_force_next_flush()");
    await autoAnalyze(db, { everyMs: 0 })();
    assert.equal((await upkeep(db)).analyzed, first);
    await autoAnalyze(db, { everyMs: 0, againAfterMs: 0 })();
    assert.notEqual((await upkeep(db)).analyzed, first);
  } finally {
    await db.close();
  }
});

Deno.test("the upkeep samples at statistics target 10 and gives the event loop a turn between two tables", async () => {
  const db = await PGlite.create();
  try {
    await db.exec(`create table one (id int primary key);
      create table two (id int primary key);
      create table three (id int primary key);
      insert into one select g from generate_series(1, 5000) g;
      insert into two select g from generate_series(1, 5000) g;
      insert into three select g from generate_series(1, 5000) g;`);
    await db.query("select pg_stat_force_next_flush()");
    let turns = 0;
    await autoAnalyze(db, { everyMs: 0, turn: () => Promise.resolve(void turns++) })();
    assert.equal(turns, 2, "between the three tables, not before the first");
    // A column of distinct values gets a histogram of `target` buckets (target + 1 bounds).
    const [row] = (await db.query<{ bounds: number }>(
      `select array_length(histogram_bounds::text::int[], 1) as bounds
         from pg_stats where tablename = 'one' and attname = 'id'`,
    )).rows;
    assert.equal(row.bounds, STATISTICS_TARGET + 1);
  } finally {
    await db.close();
  }
});
