import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { MY_LIST, seedHistory } from "./helpers/entries_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";

// The list reads exactly as they were before issue 14 (lib/library/entries/mod.ts and cards.ts at
// ed50c65): the answer without a parameter must stay this, byte for byte.
const OLD_CARD_COLUMNS = `l.catalog_id as "catalogId",
    coalesce(m.title, '') as title,
    coalesce(m.year, 0) as year,
    coalesce(m.poster_path, '') as "posterPath",
    coalesce(m.genres, '{}') as genres,
    coalesce(m.runtime, 0) as runtime`;
const OLD_WATCHED_SQL = `select ${OLD_CARD_COLUMNS}
  from public.user_watched_movies l
  left join public.movies m on m.catalog_id = l.catalog_id
  where l.user_id = $1::uuid
  order by l.created_at desc, l.catalog_id desc`;
const OLD_MY_LIST_SQL = `select ${OLD_CARD_COLUMNS}
  from public.user_my_list s
  cross join lateral unnest(s.catalog_ids) with ordinality as l(catalog_id, ord)
  left join public.movies m on m.catalog_id = l.catalog_id
  where s.user_id = $1::uuid
  order by l.ord`;

function oldCard(r: Record<string, unknown>) {
  return {
    catalogId: Number(r.catalogId),
    title: String(r.title),
    year: Number(r.year),
    posterPath: String(r.posterPath),
    genres: (r.genres as string[]).map(String),
    runtime: Number(r.runtime),
  };
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/watched and GET /api/mylist without a parameter answer byte for byte what the code before issue 14 answered`, async () => {
    await using t = await testApp({ engine });
    const watcher = await createUser(t.deps);
    const saver = await createUser(t.deps);
    await seedHistory(t.store, { watcher: watcher.id, saver: saver.id });
    // Two entries added at the same instant: the id breaks the tie, as before.
    await t.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, created_at, rating)
       values ($1, 40, '2026-02-01T00:00:00Z', 3), ($1, 41, '2026-02-01T00:00:00Z', null)`,
      [watcher.id],
    );
    for (
      const [path, sql, user] of [
        ["/api/watched", OLD_WATCHED_SQL, watcher],
        ["/api/mylist", OLD_MY_LIST_SQL, saver],
      ] as const
    ) {
      const expected = JSON.stringify({
        success: true,
        movies: (await t.store.query(sql, [user.id])).map(oldCard),
      });
      const res = await t.request(path, { headers: user.headers });
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      assert.equal(await res.text(), expected, path);
    }
    assert.equal(MY_LIST.length, 6);
  });
}
