/**
 * Figures that need details say how many films are still being filled in (docs/catalog.md, "The
 * details job"): /stats, /stats/:year and the /watched strip show "Still fetching details for N
 * films" while they count films without details, and nothing once they arrive.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";
import { sessionCookie } from "./helpers/web.ts";

const B = 1_950_400_000;

for (const engine of ENGINES) {
  Deno.test(`[${engine}] /stats, /stats/:year and /watched say how many films are still being filled in, and nothing once they are`, async () => {
    await using t = await testApp({ engine });
    t.clock.set("2026-02-01T12:00:00Z");
    const u = await createUser(t.deps);
    const cookie = { cookie: sessionCookie(u.token, u.email) };
    // Two films watched in 2025 from their search rows (light), one in 2024 with details.
    await t.store.query(
      `insert into public.movies (catalog_id, title, has_details, runtime, actors, directors)
       values ($1, 'Light One', false, null, null, null), ($2, 'Light Two', false, null, null,
         null), ($3, 'Full', true, 100, '{A}', '{D}')
       on conflict (catalog_id) do update set has_details = excluded.has_details`,
      [B + 1, B + 2, B + 3],
    );
    await t.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, watched_on)
       values ($1, $2, '2025-03-01'), ($1, $3, '2025-04-01'), ($1, $4, '2024-05-01')`,
      [u.id, B + 1, B + 2, B + 3],
    );
    const page = async (path: string) => {
      const res = await t.request(path, { headers: cookie });
      assert.equal(res.status, 200);
      return await res.text();
    };
    assert.match(await page("/stats"), /Still fetching details for 2 films/);
    assert.match(await page("/stats/2025"), /Still fetching details for 2 films/);
    assert.match(await page("/watched"), /Still fetching details for 2 films/);
    assert.doesNotMatch(await page("/stats/2024"), /Still fetching details/);
    await t.store.query(
      `update public.movies set has_details = true, runtime = 90 where catalog_id = $1`,
      [B + 1],
    );
    assert.match(await page("/stats/2025"), /Still fetching details for 1 film:/);
    await t.store.query(
      `update public.movies set has_details = true, runtime = 90 where catalog_id = $1`,
      [B + 2],
    );
    assert.doesNotMatch(await page("/stats"), /Still fetching details/);
    assert.doesNotMatch(await page("/watched"), /Still fetching details/);
  });
}
