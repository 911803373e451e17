/**
 * The diary's caps (issue 43, item 6; docs/diary.md, "Limits"): 1,000 viewings of one film and
 * 200,000 in all per user, each at its edge, through the diary route and a history import, on
 * both stores.
 */
import assert from "node:assert/strict";
import { MAX_VIEWINGS, MAX_VIEWINGS_PER_FILM } from "@/lib/library/diary/limits.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { testApp } from "./helpers/app.ts";
import { bytesOf, csvText } from "./helpers/history_files.ts";
import { historyWorld } from "./helpers/history_import_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

function log(u: TestUser, body: Record<string, unknown>): [string, RequestInit] {
  return ["/api/diary", {
    method: "POST",
    headers: { ...u.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  }];
}

async function answer(res: Response): Promise<[number, string | undefined]> {
  const body = await res.json();
  return [res.status, body.code];
}

/** `count` viewings of `catalogId`, one a day from 2000-01-01, as the user (the triggers run). */
async function seedFilm(store: Store, userId: string, catalogId: number, count: number) {
  await store.asUser(userId, async (tx) => {
    await tx.query(
      `insert into public.user_watched_movies (user_id, catalog_id, watched_on)
       values ((select auth.uid()), $1, date '2000-01-01' + $2::int - 1)`,
      [catalogId, count],
    );
    await tx.query(
      `insert into public.user_viewings (user_id, catalog_id, watched_on, source, created_at)
       select (select auth.uid()), $1, date '2000-01-01' + g, 'manual', now()
         from generate_series(0, $2::int - 1) g`,
      [catalogId, count],
    );
  });
}

/**
 * `count` viewings spread over films 1..n (1,000 a film), seeded with the kept figures'
 * triggers off (200,000 rows through them took 46 s), then the all-time figure the check reads
 * set to what the triggers keep: every viewing, plus each watched film without one.
 */
async function seedDiary(store: Store, userId: string, count: number) {
  const films = Math.ceil(count / MAX_VIEWINGS_PER_FILM);
  await store.query(
    `insert into public.user_watched_movies (user_id, catalog_id)
     select $1::uuid, g from generate_series(1, $2::int) g`,
    [userId, films],
  );
  // In pieces, each well inside PostgreSQL's statement timeout on a busy machine.
  for (let from = 0; from < count; from += 20_000) {
    await store.transaction(async (tx) => {
      await tx.query(`set local session_replication_role = replica`);
      await tx.query(
        `insert into public.user_viewings (user_id, catalog_id, watched_on, source, created_at)
         select $1::uuid, 1 + g / ${MAX_VIEWINGS_PER_FILM},
           date '2000-01-01' + g % ${MAX_VIEWINGS_PER_FILM}, 'import', now()
           from generate_series($2::int, $3::int) g`,
        [userId, from, Math.min(count, from + 20_000) - 1],
      );
    });
  }
  await store.query(
    `update public.user_stats_periods set viewings =
       (select count(*) from public.user_viewings where user_id = $1::uuid)
       + (select count(*) from public.user_watched_movies w where w.user_id = $1::uuid
            and not exists (select 1 from public.user_viewings v
                             where v.user_id = w.user_id and v.catalog_id = w.catalog_id))
     where user_id = $1::uuid and period = 0`,
    [userId],
  );
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a film takes its 1,000th viewing and answers 400 too_many_viewings to the 1,001st; a repeat and another film still log`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await seedFilm(t.store, u.id, 550, MAX_VIEWINGS_PER_FILM - 1);
    assert.deepEqual(
      await answer(await t.request(...log(u, { catalogId: 550, watchedOn: "2026-01-01" }))),
      [201, undefined],
    );
    const past = await t.request(...log(u, { catalogId: 550, watchedOn: "2026-01-02" }));
    assert.match(past.headers.get("content-type") ?? "", /^application\/problem\+json/);
    const body = await past.json();
    assert.equal(past.status, 400);
    assert.equal(body.code, "too_many_viewings");
    assert.match(body.detail, /1,000 viewings/);
    // The same movie and date is the same viewing: updating it is no new one.
    assert.deepEqual(
      await answer(
        await t.request(...log(u, { catalogId: 550, watchedOn: "2026-01-01", rating: 8 })),
      ),
      [200, undefined],
    );
    assert.deepEqual(
      await answer(await t.request(...log(u, { catalogId: 13, watchedOn: "2026-01-02" }))),
      [201, undefined],
    );
    const [row] = await t.store.query<{ n: number }>(
      `select count(*)::int as n from public.user_viewings where user_id = $1 and catalog_id = 550`,
      [u.id],
    );
    assert.equal(Number(row.n), MAX_VIEWINGS_PER_FILM);
  });

  Deno.test(`[${engine}] a diary takes its 200,000th viewing and answers 400 too_many_viewings to the next, on any film`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await seedDiary(t.store, u.id, MAX_VIEWINGS - 1);
    // Ten films watched without a viewing: the kept figure counts them, the cap does not.
    await t.store.query(
      `insert into public.user_watched_movies (user_id, catalog_id)
       select $1::uuid, 900000 + g from generate_series(1, 10) g`,
      [u.id],
    );
    assert.deepEqual(
      await answer(await t.request(...log(u, { catalogId: 900001, watchedOn: "2026-01-01" }))),
      [201, undefined],
    );
    const past = await t.request(...log(u, { catalogId: 900002, watchedOn: "2026-01-01" }));
    const body = await past.json();
    assert.deepEqual([past.status, body.code], [400, "too_many_viewings"]);
    assert.match(body.detail, /200,000 viewings/);
    // A film already logged on that day is the same viewing.
    assert.deepEqual(
      await answer(await t.request(...log(u, { catalogId: 900001, watchedOn: "2026-01-01" }))),
      [200, undefined],
    );
    const [row] = await t.store.query<{ n: number }>(
      `select count(*)::int as n from public.user_viewings where user_id = $1`,
      [u.id],
    );
    assert.equal(Number(row.n), MAX_VIEWINGS);
  });

  Deno.test(`[${engine}] an import logs a film's viewings up to the cap and reports the rest as tooManyViewings; the run succeeds`, async () => {
    await using w = await historyWorld({ engine });
    // Fight Club (550 in the fake's catalog) two viewings short of the cap.
    await seedFilm(w.t.store, w.user.id, 550, MAX_VIEWINGS_PER_FILM - 2);
    const diary = csvText(
      ["Date", "Name", "Year", "Letterboxd URI", "Rating", "Rewatch", "Tags", "Watched Date"],
      [
        ...["2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04", "2026-01-05"].map((on) => [
          on,
          "Fight Club",
          "1999",
          "https://boxd.it/fc",
          "4",
          "Yes",
          "",
          on,
        ]),
        ["2026-01-06", "Heat", "1995", "https://boxd.it/h", "5", "", "", "2026-01-06"],
      ],
    );
    const run = await w.importFile(bytesOf(diary));
    assert.equal(run.status, "succeeded");
    assert.equal(run.counts.tooManyViewings, 3);
    assert.equal(run.counts.skipped, 0);
    const rows = await w.t.store.query<{ catalog_id: number; n: number; last: string }>(
      `select catalog_id, count(*)::int as n, max(watched_on)::text as last
       from public.user_viewings where user_id = $1 group by catalog_id order by catalog_id`,
      [w.user.id],
    );
    assert.deepEqual(rows.map((r) => [Number(r.catalog_id), Number(r.n), r.last]), [
      [550, MAX_VIEWINGS_PER_FILM, "2026-01-02"],
      [949, 1, "2026-01-06"],
    ]);
    // The film is imported all the same: its watched entry takes the file's latest date.
    const [entry] = await w.t.store.query<{ on: string }>(
      `select watched_on::text as on from public.user_watched_movies
       where user_id = $1 and catalog_id = 550`,
      [w.user.id],
    );
    assert.equal(entry.on, "2026-01-05");
  });
}
