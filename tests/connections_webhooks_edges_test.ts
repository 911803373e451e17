/**
 * The receivers at the edges of what they read (docs/connections.md): a TMDB id is a whole
 * number from 1 to 2147483647 (the last one is looked up, the next is `unmatched`
 * `invalid_id` without a lookup), and a NUL character in a text is dropped, so every such
 * event is a 200 and listed, never a 500.
 */
import assert from "node:assert/strict";
import { MAX_VIEWINGS_PER_FILM } from "@/lib/library/diary/limits.ts";
import { MAX_WATCHED } from "@/lib/library/entries/limits.ts";
import { testApp } from "./helpers/app.ts";
import { detailBody, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { hookPath, jsonPost, payloads } from "./helpers/webhooks.ts";

type T = Awaited<ReturnType<typeof testApp>>;

const MAX_ID = 2147483647;

async function world(engine: (typeof ENGINES)[number]) {
  const tmdb = await startFakeTmdb();
  tmdb.movies.set(MAX_ID, detailBody(MAX_ID, { title: "The Last Id", release_date: "2024-05-01" }));
  tmdb.movies.set(593643, detailBody(593643, { title: "The Menu", release_date: "2022-11-17" }));
  const t = await testApp({ engine, env: tmdbEnv(tmdb) });
  await t.deps.store.query(`delete from public.movies where catalog_id = $1`, [MAX_ID]);
  t.clock.set("2026-11-28T20:00:00.000Z");
  const u = await createUser(t.deps);
  return {
    t,
    tmdb,
    u,
    hook: await hookPath(t, u),
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await tmdb.close();
    },
  };
}

async function send(t: T, path: string, init: RequestInit) {
  const res = await t.request(path, init);
  return { status: res.status, body: await res.json() };
}

async function events(t: T, u: TestUser) {
  const res = await t.request("/api/me/connections/events", { headers: u.headers });
  assert.equal(res.status, 200);
  return (await res.json()).events as Record<string, unknown>[];
}

async function diaryIds(t: T, u: TestUser) {
  const res = await t.request("/api/diary", { headers: u.headers });
  return ((await res.json()).entries as { catalogId: number }[]).map((e) => e.catalogId);
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a TMDB id of 2147483648 is 200 unmatched invalid_id on the generic and Emby receivers, listed, and never looked up`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    const generic = await send(t, `${w.hook}/generic`, jsonPost({ tmdbId: 2147483648 }));
    assert.deepEqual(generic, { status: 200, body: { result: "unmatched", reason: "invalid_id" } });
    const emby = payloads.embyStop();
    ((emby.Item as Record<string, unknown>).ProviderIds as Record<string, unknown>).Tmdb =
      2147483648;
    assert.deepEqual(await send(t, `${w.hook}/emby`, jsonPost(emby)), {
      status: 200,
      body: { result: "unmatched", reason: "invalid_id" },
    });
    const listed = await events(t, u);
    assert.deepEqual(listed.map((e) => [e.source, e.result, e.reason, e.title, e.catalogId]), [
      ["emby", "unmatched", "invalid_id", "The Accountant", null],
      ["generic", "unmatched", "invalid_id", null, null],
    ]);
    assert.ok(!w.tmdb.requests.some((r) => r.path.startsWith("/movie/2147483648")));
    assert.ok(!w.tmdb.requests.some((r) => r.path.startsWith("/search")), "no title match");
    assert.deepEqual(await diaryIds(t, u), []);
  });

  Deno.test(`[${engine}] a TMDB id of 2147483647 is looked up and logged (generic and Jellyfin, number and string)`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    assert.deepEqual(
      await send(t, `${w.hook}/generic`, jsonPost({ tmdbId: MAX_ID, watchedAt: "2026-11-27" })),
      { status: 200, body: { result: "logged" } },
    );
    assert.ok(w.tmdb.requests.some((r) => r.path === `/movie/${MAX_ID}`));
    const jellyfin = payloads.jellyfinStop();
    jellyfin.Provider_tmdb = String(MAX_ID);
    assert.deepEqual(await send(t, `${w.hook}/jellyfin`, jsonPost(jellyfin)), {
      status: 200,
      body: { result: "logged" },
    });
    assert.deepEqual(await diaryIds(t, u), [MAX_ID, MAX_ID]);
    const [last] = await events(t, u);
    assert.deepEqual([last.result, last.title, last.catalogId], ["logged", "The Last Id", MAX_ID]);
  });

  Deno.test(`[${engine}] a NUL in a title is dropped: the generic and Jellyfin receivers answer 200 and list the event`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    const generic = await send(
      t,
      `${w.hook}/generic`,
      jsonPost({ title: "Fight\u0000 Club", year: 1999 }),
    );
    assert.deepEqual(generic, { status: 200, body: { result: "logged" } });
    const jellyfin = payloads.jellyfinStop();
    jellyfin.Name = "The Menu\u0000";
    jellyfin.NotificationType = "PlaybackStop\u0000";
    assert.deepEqual(await send(t, `${w.hook}/jellyfin`, jsonPost(jellyfin)), {
      status: 200,
      body: { result: "logged" },
    });
    const unknown = payloads.jellyfinStop();
    delete unknown.Provider_tmdb;
    unknown.Name = "\u0000";
    unknown.Year = null;
    assert.deepEqual(await send(t, `${w.hook}/jellyfin`, jsonPost(unknown)), {
      status: 200,
      body: { result: "unmatched", reason: "no_movie" },
    });
    const listed = await events(t, u);
    assert.deepEqual(listed.map((e) => [e.source, e.event, e.result, e.catalogId]), [
      ["jellyfin", "PlaybackStop", "unmatched", null],
      ["jellyfin", "PlaybackStop", "logged", 593643],
      ["generic", "watched", "logged", 550],
    ]);
    assert.equal(listed[1].title, "The Menu");
    assert.ok(listed.every((e) => !String(e.title).includes("\u0000")));
    assert.deepEqual((await diaryIds(t, u)).sort((a, b) => a - b), [550, 593643]);
  });

  Deno.test(`[${engine}] a play past the diary's 1,000 viewings of a film or the watched list's 100,000 films is 200 ignored, listed with its reason, and logs nothing`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    const MENU = 593643;
    // 999 viewings of The Menu, one a day from 2000-01-01, as the user (the triggers run).
    await t.store.asUser(u.id, async (tx) => {
      await tx.query(
        `insert into public.user_watched_movies (user_id, catalog_id, watched_on)
         values ((select auth.uid()), $1, date '2002-09-25')`,
        [MENU],
      );
      await tx.query(
        `insert into public.user_viewings (user_id, catalog_id, watched_on, source, created_at)
         select (select auth.uid()), $1, date '2000-01-01' + g, 'manual', now()
           from generate_series(0, $2::int - 1) g`,
        [MENU, MAX_VIEWINGS_PER_FILM - 1],
      );
    });
    const play = (tmdbId: number, watchedAt: string) =>
      send(t, `${w.hook}/generic`, jsonPost({ tmdbId, watchedAt }));
    // The 1,000th is logged; the 1,001st is not, and the server still gets its 200.
    assert.deepEqual(await play(MENU, "2026-11-26"), { status: 200, body: { result: "logged" } });
    assert.deepEqual(await play(MENU, "2026-11-27"), {
      status: 200,
      body: { result: "ignored", reason: "too_many_viewings" },
    });
    // A repeat of a stored viewing is no new one: still logged.
    assert.deepEqual(await play(MENU, "2026-11-26"), {
      status: 200,
      body: { result: "logged", reason: "already_logged" },
    });
    // The watched list full (its kept count, which the check reads): a new film is ignored too.
    await t.store.query(
      `update public.user_watched_counts set movies = $2 where user_id = $1 and period = 0`,
      [u.id, MAX_WATCHED],
    );
    assert.deepEqual(await play(MAX_ID, "2026-11-27"), {
      status: 200,
      body: { result: "ignored", reason: "list_full" },
    });
    const listed = await events(t, u);
    assert.deepEqual(
      listed.slice(0, 4).map((e) => [e.result, e.reason, e.title, e.catalogId]),
      [
        ["ignored", "list_full", "The Last Id", MAX_ID],
        ["logged", "already_logged", "The Menu", MENU],
        ["ignored", "too_many_viewings", "The Menu", MENU],
        ["logged", null, "The Menu", MENU],
      ],
    );
    const [row] = await t.store.query<{ menu: number; last: number }>(
      `select count(*) filter (where catalog_id = $2)::int as menu,
              count(*) filter (where catalog_id = $3)::int as last
         from public.user_viewings where user_id = $1`,
      [u.id, MENU, MAX_ID],
    );
    assert.deepEqual(row, { menu: MAX_VIEWINGS_PER_FILM, last: 0 });
  });
}
