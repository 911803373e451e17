/**
 * `deno task chaos`: the faults of issue 19 against the real server in child processes, each
 * check printed PASS or FAIL with what it saw; exits 1 on any failure.
 * - kill -9 during 50 writers, 5 rounds, on the embedded store and on PostgreSQL: every
 *   acknowledged write present, every B-tree index intact (amcheck), a healthy restart;
 * - a second process on one DATA_DIR refuses to start;
 * - 200 slow-body clients end with 408 while the server stays responsive;
 * - PostgreSQL frozen and stopped mid-run (through a TCP proxy; the server itself is untouched);
 * - the fake movie database and AI provider hanging, dropping, answering 500 or garbage;
 * - 20,000 fuzzed requests over HTTP;
 * - the upload storm (issue 43): five users uploading a 20 MiB history file each at once on a
 *   fresh server, its peak resident memory against 800 MB;
 * - the import storm (issue 24): five users importing the worst history files at once while a
 *   probe reads health, a stored detail, a search and a list every 100 ms.
 * PostgreSQL parts run when LOAD_DATABASE_URL (or TEST_DATABASE_URL) is set. CHAOS_ROUNDS and
 * CHAOS_FUZZ shorten or lengthen the run; CHAOS_ONLY=kill,bodies,database,upstreams,fuzz,storm,
 * uploads picks (storm runs both storms, uploads the upload storm alone); STORM_RUN_SECONDS and
 * STORM_MAX_SECONDS bound the import storm, STORM_MIB sizes its two large files.
 */
import { scriptDatabaseUrl, startWorld } from "./load/world.ts";
import { slowBodies } from "./chaos/bodies.ts";
import { databaseFaults } from "./chaos/database.ts";
import { fuzzOverHttp } from "./chaos/fuzz.ts";
import { killDuringWriters, secondProcess } from "./chaos/kill.ts";
import { allOutcomes, record } from "./chaos/report.ts";
import { upstreamFaults } from "./chaos/upstreams.ts";
import { importStorm } from "./chaos/import_storm.ts";
import { uploadStorm } from "./chaos/upload_storm.ts";

const ROUNDS = Number(Deno.env.get("CHAOS_ROUNDS") ?? "5");
const FUZZ = Number(Deno.env.get("CHAOS_FUZZ") ?? "20000");
const only = Deno.env.get("CHAOS_ONLY")?.split(",");
const wants = (part: string) => !only || only.includes(part);
const databaseUrl = scriptDatabaseUrl();

async function step(name: string, fn: () => Promise<void>) {
  try {
    await fn();
  } catch (error) {
    record(name, false, `crashed: ${error instanceof Error ? error.stack : error}`);
  }
}

const started = performance.now();
console.log(`# deno task chaos: ${Deno.build.target}, ${navigator.hardwareConcurrency} cores`);
if (wants("kill")) {
  await step("kill -9 [embedded]", async () => {
    await using world = await startWorld("embedded");
    await secondProcess(world);
    await killDuringWriters(world, ROUNDS);
  });
  if (databaseUrl) {
    await step("kill -9 [postgres]", async () => {
      await using world = await startWorld("postgres");
      await killDuringWriters(world, ROUNDS);
    });
  }
}
if (wants("bodies") || wants("upstreams") || wants("fuzz")) {
  await step("embedded world", async () => {
    await using world = await startWorld("embedded", { users: 4 });
    if (wants("bodies")) await slowBodies(world);
    if (wants("upstreams")) await upstreamFaults(world);
    if (wants("fuzz")) await fuzzOverHttp(world, FUZZ, 19);
  });
}
if (wants("storm") || wants("uploads")) {
  await step("upload storm", async () => {
    await using world = await startWorld("embedded", { users: 5 });
    await uploadStorm(world);
  });
}
if (wants("storm")) {
  await step("import storm", async () => {
    await using world = await startWorld("embedded", { users: 5 });
    await importStorm(world);
  });
}
if (wants("database")) {
  if (databaseUrl) await step("database faults", () => databaseFaults(databaseUrl));
  else console.log("SKIP database faults: set LOAD_DATABASE_URL");
}
const failed = allOutcomes().filter((o) => !o.ok);
console.log(
  `\nchaos: ${allOutcomes().length - failed.length} passed, ${failed.length} failed ` +
    `in ${Math.round((performance.now() - started) / 1000)} s`,
);
if (failed.length) Deno.exit(1);
