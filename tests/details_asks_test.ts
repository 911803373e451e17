/**
 * What a feature stores from a search row asks the details job for a run (docs/catalog.md, "The
 * details job"): a webhook's film matched by title is filled in by the run its search asked for,
 * without waiting for the cron.
 */
import assert from "node:assert/strict";
import { DETAIL_APPENDS } from "@/lib/catalog/tmdb_client.ts";
import { ASK_DELAY_MS } from "@/lib/catalog/details/mod.ts";
import { FakeClock } from "@/lib/core/clock.ts";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";
import { hookPath, jsonPost } from "./helpers/webhooks.ts";

const FIGHT_CLUB = 550;

/** A fake clock whose sleeps end only when the test moves it, as real time would later. */
class WaitingClock extends FakeClock {
  override sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const stop = this.every(Math.max(1, ms), () => {
        stop();
        resolve();
      });
    });
  }
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a webhook's film matched by title gets its full details from the run its search asked for`, async () => {
    await using tmdb = await startFakeTmdb();
    await using t = await testApp({
      engine,
      clock: new WaitingClock("2026-11-28T20:00:00.000Z"),
      env: { ...tmdbEnv(tmdb), DETAILS_CRON: "*/10 * * * *" },
    });
    await t.store.query(`delete from public.movies where catalog_id = $1`, [FIGHT_CLUB]);
    const u = await createUser(t.deps);
    const hook = await hookPath(t, u);
    const res = await t.request(
      `${hook}/generic`,
      jsonPost({ title: "Fight Club", year: 1999 }),
    );
    assert.deepEqual(await res.json(), { result: "logged" });
    // The search asked; the run starts once the ask's delay has passed.
    assert.deepEqual(await t.services.details.runs(), []);
    t.clock.advance(ASK_DELAY_MS);
    await t.services.details.settled();
    const [movie] = await t.store.query<Record<string, unknown>>(
      `select has_details, details_appends, runtime is not null as runtime
         from public.movies where catalog_id = $1`,
      [FIGHT_CLUB],
    );
    assert.deepEqual(movie, { has_details: true, details_appends: DETAIL_APPENDS, runtime: true });
    const [run] = await t.services.details.runs();
    assert.equal(run.trigger, "asked");
    assert.equal(run.moviesRefreshed, 1);
    const stats = await (await t.request("/api/stats", { headers: u.headers })).json();
    assert.equal(stats.incomplete, 0);
    assert.ok(stats.hours > 0);
  });
}
