/**
 * A run's units are stored after the upload's 202 (docs/history.md, "Runs"): a cancelled run
 * stops storing and keeps none, and a run a restart cut off before they were all stored fails
 * with words saying so instead of resuming with films missing.
 */
import assert from "node:assert/strict";
import { insertRun, storeUnits } from "../lib/library/history/import/runs.ts";
import type { ImportUnit } from "../lib/library/history/import/units.ts";
import { storedUnits, unitChunks } from "../lib/library/history/import/unit_source.ts";
import { historyWorld } from "./helpers/history_import_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";

type World = Awaited<ReturnType<typeof historyWorld>>;

const units = (n: number): ImportUnit[] =>
  Array.from({ length: n }, (_, i) => ({
    title: `Stored Film ${i}`,
    year: 2001,
    rows: 1,
    watched: true,
    listed: 0,
  }));

async function recordRun(w: World, films: number, userId = w.user.id): Promise<string> {
  const id = crypto.randomUUID();
  const inserted = await insertRun(w.t.store, {
    id,
    userId,
    format: "letterboxd",
    startedAt: new Date(w.t.deps.clock.now()).toISOString(),
    counts: { rows: films, matched: 0, added: 0, updated: 0, skipped: 0, unmatched: 0 },
    films: { total: films, matched: 0, unmatched: 0 },
  });
  assert.ok(inserted);
  return id;
}

const chunks = async (w: World, id: string) =>
  (await w.t.store.query<{ n: number }>(
    `select count(*)::int as n from public.history_import_units where import_id = $1`,
    [id],
  ))[0].n;

for (const engine of ENGINES) {
  Deno.test(`[${engine}] storing a run's units stops once the run is cancelled, and leaves no chunk behind`, async () => {
    await using w = await historyWorld({ engine });
    const id = await recordRun(w, 1000);
    let pauses = 0;
    const stored = await storeUnits(w.t.store, { id, chunks: await unitChunks(units(1000)) }, {
      pause: async () => {
        // The user cancels while the second of five chunks is being stored.
        if (++pauses === 1) {
          const res = await w.t.request(`/api/import/${id}/cancel`, {
            method: "POST",
            headers: w.user.headers,
          });
          assert.equal(res.status, 200);
          await res.body?.cancel();
        }
      },
      keep: () => Promise.resolve(true),
    });
    assert.equal(stored, false);
    assert.equal(pauses, 1, "nothing stored after the cancel");
    assert.equal(await chunks(w, id), 0);
  });

  Deno.test(`[${engine}] storing a run's units stops when its lease is lost, and a whole run's chunks are all there`, async () => {
    await using w = await historyWorld({ engine });
    const lost = await recordRun(w, 450);
    const stored = await storeUnits(w.t.store, { id: lost, chunks: await unitChunks(units(450)) }, {
      pause: () => undefined,
      keep: () => Promise.resolve(false),
    });
    assert.equal(stored, false);
    // Still running (the instance that takes it over decides): its chunk stays for it to see.
    assert.equal(await chunks(w, lost), 1);
    const cancelled = await w.t.request(`/api/import/${lost}/cancel`, {
      method: "POST",
      headers: w.user.headers,
    });
    assert.equal(cancelled.status, 200);
    await cancelled.body?.cancel();
    assert.equal(await chunks(w, lost), 0, "its cancel took the chunk with it");

    // A user has one running run at a time: the whole one is another user's.
    const owner = await createUser(w.t.deps);
    const whole = await recordRun(w, 450, owner.id);
    assert.equal(
      await storeUnits(w.t.store, { id: whole, chunks: await unitChunks(units(450)) }, {
        pause: () => undefined,
        keep: () => Promise.resolve(true),
      }),
      true,
    );
    assert.equal(await chunks(w, whole), 3, "200 a chunk: 200, 200 and 50");
    // Ended here: on PostgreSQL the database is the suite's, and another test's resume() would
    // otherwise carry this run's 450 searches on.
    const ended = await w.t.request(`/api/import/${whole}/cancel`, {
      method: "POST",
      headers: owner.headers,
    });
    assert.equal(ended.status, 200);
    await ended.body?.cancel();
  });

  Deno.test(`[${engine}] a run a restart cut off before its units were all stored fails, saying so, instead of resuming`, async () => {
    await using w = await historyWorld({ engine });
    const id = await recordRun(w, 450);
    // One chunk of three stored, then the process "died" (no lease held anywhere).
    await storeUnits(w.t.store, { id, chunks: await unitChunks(units(450).slice(0, 200)) }, {
      pause: () => undefined,
      keep: () => Promise.resolve(true),
    });
    // On PostgreSQL the database is the whole suite's: other runs may be resumed beside it.
    assert.ok(!(await w.t.services.historyImport.resume()).includes(id));
    const res = await w.t.request(`/api/import/${id}`, { headers: w.user.headers });
    assert.equal(res.status, 200);
    const run = await res.json();
    assert.equal(run.status, "failed");
    assert.equal(run.films.total, 450);
    assert.notEqual(run.finishedAt, null);
    const [row] = await w.t.store.query<{ error: string }>(
      `select error from public.history_imports where id = $1`,
      [id],
    );
    assert.match(row.error, /interrupted before its films were stored/);
    assert.equal(await chunks(w, id), 0, "a run that ended keeps no units");
    // (The suite's PostgreSQL database may hold other tests' runs, which resume() carries on.)
    if (engine === "embedded") assert.equal(w.searches(), 0, "nothing of it was searched");
  });
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a fresh run's films leave memory as each chunk is stored and are read back from the store across chunk edges; gone once cancelled`, async () => {
    await using w = await historyWorld({ engine });
    const id = await recordRun(w, 450);
    const all = units(450);
    const json = await unitChunks(all);
    assert.equal(json.length, 3);
    assert.ok(
      await storeUnits(w.t.store, { id, chunks: json }, {
        pause: () => undefined,
        keep: () => Promise.resolve(true),
      }),
    );
    assert.deepEqual(json, ["", "", ""], "each chunk's JSON let go once stored");
    const source = storedUnits(w.t.store, { id, length: 450, rows: 450 });
    assert.deepEqual(await source.slice(0, 50), all.slice(0, 50));
    // A batch across the edge of two chunks, and the run's last one.
    assert.deepEqual(await source.slice(150, 250), all.slice(150, 250));
    assert.deepEqual(await source.slice(400, 450), all.slice(400, 450));
    const reads = w.t.store.stats.queries;
    assert.deepEqual(await source.slice(420, 440), all.slice(420, 440));
    assert.equal(w.t.store.stats.queries, reads, "a chunk just read is not read again");
    const cancelled = await w.t.request(`/api/import/${id}/cancel`, {
      method: "POST",
      headers: w.user.headers,
    });
    await cancelled.body?.cancel();
    assert.equal(await storedUnits(w.t.store, { id, length: 450, rows: 450 }).slice(0, 50), null);
  });
}
