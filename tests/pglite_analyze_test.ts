/**
 * The embedded store analyzes what changed (lib/store/pglite_analyze.ts): PGlite has no
 * autovacuum, and without statistics a page of a long list was read by sorting all of it.
 */
import assert from "node:assert/strict";
import { PGlite } from "@electric-sql/pglite";
import { autoAnalyze } from "../lib/store/pglite_analyze.ts";

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
