/**
 * The media-server receivers (docs/connections.md) with the recorded payloads of Plex, the
 * Jellyfin Webhook plugin and Emby: a finished movie becomes a diary viewing (source `webhook`),
 * a rating lands on the watched movie, everything else is a 200 `ignored`; the events are listed
 * for their owner without payloads.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { detailBody, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { problem } from "./helpers/problems.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { hookPath, jsonPost, payloads, plexForm } from "./helpers/webhooks.ts";

type T = Awaited<ReturnType<typeof testApp>>;

async function world(engine: (typeof ENGINES)[number]) {
  const tmdb = await startFakeTmdb();
  // Movies the store lacks: their details come from the (fake) TMDB through the window.
  tmdb.movies.set(
    6978,
    detailBody(6978, { title: "Big Trouble in Little China", release_date: "1986-07-02" }),
  );
  tmdb.movies.set(593643, detailBody(593643, { title: "The Menu", release_date: "2022-11-17" }));
  tmdb.movies.set(
    302946,
    detailBody(302946, { title: "The Accountant", release_date: "2016-10-13" }),
  );
  const t = await testApp({ engine, env: tmdbEnv(tmdb) });
  // The suite shares one PostgreSQL database: an earlier run may have stored them.
  await t.deps.store.query(`delete from public.movies where catalog_id = any($1::int[])`, [
    [...tmdb.movies.keys()],
  ]);
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

async function diary(t: T, u: TestUser) {
  return (await (await t.request("/api/diary", { headers: u.headers })).json()).entries as {
    catalogId: number;
    watchedOn: string;
    source: string;
    rating: number | null;
    title: string;
  }[];
}

async function events(t: T, u: TestUser) {
  const res = await t.request("/api/me/connections/events", { headers: u.headers });
  assert.equal(res.status, 200);
  return (await res.json()).events as Record<string, unknown>[];
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a Plex scrobble logs today's viewing of the tmdb:// movie, fetched through the window, and takes it off My List`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    await (await t.request("/api/mylist", {
      method: "POST",
      headers: { ...u.headers, "content-type": "application/json" },
      body: JSON.stringify({ catalogId: 6978 }),
    })).body?.cancel();
    const answer = await send(t, `${w.hook}/plex`, plexForm(payloads.plexScrobble()));
    assert.deepEqual(answer, { status: 200, body: { result: "logged" } });
    assert.ok(w.tmdb.requests.some((r) => r.path === "/movie/6978"), "fetched through TMDB");
    const [viewing] = await diary(t, u);
    assert.deepEqual(
      { ...viewing, id: undefined, posterPath: undefined, rewatch: undefined, note: undefined },
      {
        id: undefined,
        posterPath: undefined,
        rewatch: undefined,
        note: undefined,
        catalogId: 6978,
        title: "Big Trouble in Little China",
        year: 1986,
        watchedOn: "2026-11-28",
        rating: null,
        source: "webhook",
      },
    );
    const mylist = await (await t.request("/api/mylist", { headers: u.headers })).json();
    assert.deepEqual(mylist.movies, []);
    const [event] = await events(t, u);
    assert.deepEqual(event, {
      at: "2026-11-28T20:00:00.000Z",
      source: "plex",
      event: "media.scrobble",
      result: "logged",
      reason: null,
      title: "Big Trouble in Little China",
      year: 1986,
      catalogId: 6978,
    });
    assert.ok(!JSON.stringify(event).includes("SHIELD"), "no payload kept");
  });

  Deno.test(`[${engine}] the legacy Plex agent's themoviedb guid is read, and media.rate sets the rating (0 clears it)`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    const legacy = payloads.plexScrobble();
    const metadata = legacy.Metadata as Record<string, unknown>;
    metadata.guid = "com.plexapp.agents.themoviedb://6978?lang=en";
    delete metadata.Guid;
    assert.equal((await send(t, `${w.hook}/plex`, plexForm(legacy))).body.result, "logged");
    assert.equal((await diary(t, u))[0].catalogId, 6978);
    const rated = await send(t, `${w.hook}/plex`, plexForm(payloads.plexRate()));
    assert.deepEqual(rated.body, { result: "rated" });
    const entry = async () =>
      (await (await t.request("/api/watched/6978", { headers: u.headers })).json()).entry;
    assert.equal((await entry()).rating, 5);
    assert.equal((await diary(t, u))[0].rating, 5);
    const cleared = payloads.plexRate();
    cleared.rating = 0;
    assert.deepEqual((await send(t, `${w.hook}/plex`, plexForm(cleared))).body, {
      result: "rated",
    });
    assert.equal((await entry()).rating, null);
  });

  Deno.test(`[${engine}] Plex: an episode, another event and another account's scrobble are ignored with a 200`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    const episode = payloads.plexEpisode();
    episode.event = "media.scrobble";
    assert.deepEqual((await send(t, `${w.hook}/plex`, plexForm(episode))).body, {
      result: "ignored",
      reason: "not_a_movie",
    });
    const play = payloads.plexScrobble();
    play.event = "media.play";
    assert.deepEqual((await send(t, `${w.hook}/plex`, plexForm(play))).body, {
      result: "ignored",
      reason: "unsupported_event",
    });
    const put = await t.request("/api/me/connections", {
      method: "PUT",
      headers: { ...u.headers, "content-type": "application/json" },
      body: JSON.stringify({ plexUsername: "Anna" }),
    });
    assert.equal((await put.json()).plexUsername, "Anna");
    assert.deepEqual(
      (await send(t, `${w.hook}/plex`, plexForm(payloads.plexScrobble()))).body,
      { result: "ignored", reason: "other_plex_account" },
    );
    assert.deepEqual(await diary(t, u), []);
    const mine = payloads.plexScrobble();
    (mine.Account as Record<string, unknown>).title = "anna";
    assert.equal((await send(t, `${w.hook}/plex`, plexForm(mine))).body.result, "logged");
    const listed = await events(t, u);
    assert.deepEqual(listed.map((e) => [e.event, e.result, e.reason]), [
      ["media.scrobble", "logged", null],
      ["media.scrobble", "ignored", "other_plex_account"],
      ["media.play", "ignored", "unsupported_event"],
      ["media.scrobble", "ignored", "not_a_movie"],
    ]);
  });

  Deno.test(`[${engine}] Jellyfin: PlaybackStop played to completion logs on the event's UTC date; the same movie again that day is one viewing`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    // The plugin posts text/plain unless a Content-Type header is configured.
    const first = await send(
      t,
      `${w.hook}/jellyfin`,
      jsonPost(payloads.jellyfinStop(), "text/plain"),
    );
    assert.deepEqual(first.body, { result: "logged" });
    const again = await send(t, `${w.hook}/jellyfin`, jsonPost(payloads.jellyfinStop()));
    assert.deepEqual(again.body, { result: "logged", reason: "already_logged" });
    const saved = payloads.jellyfinSaved();
    saved.UtcTimestamp = payloads.jellyfinStop().UtcTimestamp;
    assert.equal(
      (await send(t, `${w.hook}/jellyfin`, jsonPost(saved))).body.reason,
      "already_logged",
    );
    const viewings = await diary(t, u);
    assert.deepEqual(viewings.map((v) => [v.catalogId, v.watchedOn, v.source]), [
      [593643, "2023-01-04", "webhook"],
    ]);
    // Marked played another day (UserDataSaved, Played as the template's "True"): a second viewing.
    const marked = payloads.jellyfinSaved();
    marked.Played = "True";
    assert.deepEqual((await send(t, `${w.hook}/jellyfin`, jsonPost(marked))).body, {
      result: "logged",
    });
    assert.deepEqual((await diary(t, u)).map((v) => v.watchedOn), ["2023-01-05", "2023-01-04"]);
  });

  Deno.test(`[${engine}] Jellyfin: stopped before the end, unplayed, or an episode is ignored`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    const stopped = payloads.jellyfinStop();
    stopped.PlayedToCompletion = "False";
    assert.deepEqual((await send(t, `${w.hook}/jellyfin`, jsonPost(stopped))).body, {
      result: "ignored",
      reason: "not_finished",
    });
    const unplayed = payloads.jellyfinSaved();
    unplayed.Played = false;
    assert.equal(
      (await send(t, `${w.hook}/jellyfin`, jsonPost(unplayed))).body.reason,
      "not_finished",
    );
    const episode = payloads.jellyfinStop();
    episode.ItemType = "Episode";
    assert.equal(
      (await send(t, `${w.hook}/jellyfin`, jsonPost(episode))).body.reason,
      "not_a_movie",
    );
    assert.deepEqual(await diary(t, u), []);
  });

  Deno.test(`[${engine}] without a TMDB id the title and year are matched as the history import does`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    const noId = payloads.jellyfinStop();
    delete noId.Provider_tmdb;
    noId.Name = "Fight Club";
    noId.Year = 1999;
    assert.deepEqual((await send(t, `${w.hook}/jellyfin`, jsonPost(noId))).body, {
      result: "logged",
    });
    // Found in the stored movies by its title key or, when no earlier test stored it (the
    // suite shares one database), by a search through the window: either way the same film.
    assert.equal((await diary(t, u))[0].catalogId, 550);
    const unknown = payloads.jellyfinStop();
    delete unknown.Provider_tmdb;
    unknown.Name = "A Film Nobody Made";
    w.tmdb.search = () => ({ page: 1, results: [], total_pages: 0, total_results: 0 });
    assert.deepEqual((await send(t, `${w.hook}/jellyfin`, jsonPost(unknown))).body, {
      result: "unmatched",
      reason: "not_found",
    });
    const [event] = await events(t, u);
    assert.deepEqual([event.result, event.title, event.year], [
      "unmatched",
      "A Film Nobody Made",
      2022,
    ]);
  });

  Deno.test(`[${engine}] a TMDB id TMDB does not know is unmatched, not an error`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    const missing = payloads.embyStop();
    ((missing.Item as Record<string, unknown>).ProviderIds as Record<string, unknown>).Tmdb =
      "999999999";
    assert.deepEqual((await send(t, `${w.hook}/emby`, jsonPost(missing))).body, {
      result: "unmatched",
      reason: "not_found",
    });
    assert.deepEqual(await diary(t, u), []);
  });

  Deno.test(`[${engine}] Emby: playback.stop played to completion and item.markplayed log; a stop midway is ignored`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    assert.deepEqual((await send(t, `${w.hook}/emby`, jsonPost(payloads.embyStop()))).body, {
      result: "logged",
    });
    assert.deepEqual((await diary(t, u)).map((v) => [v.catalogId, v.watchedOn]), [
      [302946, "2025-06-06"],
    ]);
    const midway = payloads.embyStop();
    (midway.PlaybackInfo as Record<string, unknown>).PlayedToCompletion = false;
    midway.Date = "2025-06-07T10:00:00.0000000Z";
    assert.equal((await send(t, `${w.hook}/emby`, jsonPost(midway))).body.reason, "not_finished");
    // Emby's multipart form carries the same JSON in its `data` field.
    const marked = payloads.embyStop();
    marked.Event = "item.markplayed";
    marked.Date = "2025-06-08T09:00:00.0000000Z";
    delete marked.PlaybackInfo;
    const form = new FormData();
    form.set("data", JSON.stringify(marked));
    assert.deepEqual((await send(t, `${w.hook}/emby`, { method: "POST", body: form })).body, {
      result: "logged",
    });
    assert.deepEqual((await diary(t, u)).map((v) => v.watchedOn), ["2025-06-08", "2025-06-06"]);
    const episode = payloads.embyStop();
    (episode.Item as Record<string, unknown>).Type = "Episode";
    assert.equal((await send(t, `${w.hook}/emby`, jsonPost(episode))).body.reason, "not_a_movie");
  });

  Deno.test(`[${engine}] the generic form logs with its date and rating; removeFromMyList off keeps the movie on My List`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    const put = await t.request("/api/me/connections", {
      method: "PUT",
      headers: { ...u.headers, "content-type": "application/json" },
      body: JSON.stringify({ removeFromMyList: false }),
    });
    assert.equal((await put.json()).removeFromMyList, false);
    await (await t.request("/api/mylist", {
      method: "POST",
      headers: { ...u.headers, "content-type": "application/json" },
      body: JSON.stringify({ catalogId: 550 }),
    })).body?.cancel();
    const sent = await send(
      t,
      `${w.hook}/generic`,
      jsonPost({ tmdbId: 550, watchedAt: "2026-11-27T22:15:00Z", rating: 9 }),
    );
    assert.deepEqual(sent.body, { result: "logged" });
    const [viewing] = await diary(t, u);
    assert.deepEqual([viewing.catalogId, viewing.watchedOn, viewing.rating], [
      550,
      "2026-11-27",
      9,
    ]);
    const mylist = await (await t.request("/api/mylist", { headers: u.headers })).json();
    assert.deepEqual(mylist.movies.map((m: { catalogId: number }) => m.catalogId), [550]);
    assert.deepEqual((await send(t, `${w.hook}/generic`, jsonPost({ year: 1999 }))).body, {
      result: "ignored",
      reason: "no_movie",
    });
    assert.deepEqual(
      (await send(t, `${w.hook}/generic`, jsonPost({ tmdbId: 550, rating: 11 }))).body,
      {
        result: "ignored",
        reason: "invalid_rating",
      },
    );
  });

  Deno.test(`[${engine}] only an unreadable body is a 400; an unknown secret or receiver is a 404`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    await problem(
      await t.request(`${w.hook}/jellyfin`, jsonPost(undefined)),
      400,
      "invalid_payload",
    );
    await problem(
      await t.request(`${w.hook}/jellyfin`, { method: "POST", body: "{not json" }),
      400,
      "invalid_payload",
    );
    await problem(await t.request(`${w.hook}/jellyfin`, jsonPost([1, 2])), 400, "invalid_payload");
    await problem(
      await t.request(`${w.hook}/plex`, jsonPost(payloads.plexScrobble())),
      400,
      "invalid_payload",
    );
    const noPayload = new FormData();
    noPayload.set("thumb", "x");
    await problem(
      await t.request(`${w.hook}/plex`, { method: "POST", body: noPayload }),
      400,
      "invalid_payload",
    );
    assert.equal((await events(t, u))[0].result, "invalid");
    await problem(
      await t.request(`/hooks/AAAAAAAAAAAAAAAAAAAAAA/jellyfin`, jsonPost(payloads.jellyfinStop())),
      404,
      "not_found",
    );
    await problem(await t.request(`${w.hook}/kodi`, jsonPost({})), 404, "not_found");
  });

  Deno.test(`[${engine}] a body of exactly 1 MiB is read and one byte more is a 413`, async () => {
    await using w = await world(engine);
    const { t } = w;
    const MiB = 1024 * 1024;
    const fill = (size: number) => {
      const shell = JSON.stringify({ NotificationType: "ItemAdded", Pad: "" });
      return shell.replace('"Pad":""', `"Pad":"${"x".repeat(size - shell.length)}"`);
    };
    const atLimit = fill(MiB);
    assert.equal(new TextEncoder().encode(atLimit).length, MiB);
    assert.deepEqual(
      (await send(t, `${w.hook}/jellyfin`, { method: "POST", body: atLimit })).body,
      { result: "ignored", reason: "unsupported_event" },
    );
    await problem(
      await t.request(`${w.hook}/jellyfin`, { method: "POST", body: fill(MiB + 1) }),
      413,
      "payload_too_large",
    );
  });

  Deno.test(`[${engine}] 60 events a minute per secret, the 61st is a 429 until the next minute`, async () => {
    await using w = await world(engine);
    const { t } = w;
    const ignored = jsonPost({ NotificationType: "SessionStart" });
    for (let i = 0; i < 60; i++) {
      const res = await t.request(`${w.hook}/jellyfin`, ignored);
      assert.equal(res.status, 200, `event ${i + 1}`);
      await res.body?.cancel();
    }
    const refused = await t.request(`${w.hook}/jellyfin`, ignored);
    assert.ok(Number(refused.headers.get("retry-after")) > 0);
    await problem(refused, 429, "rate_limited");
    t.clock.advance(60_000);
    assert.equal((await send(t, `${w.hook}/jellyfin`, ignored)).status, 200);
  });

  Deno.test(`[${engine}] rotating the secret kills the old URL at once; the events keep the last 50`, async () => {
    await using w = await world(engine);
    const { t, u } = w;
    const rotated = await send(t, "/api/me/connections/rotate", {
      method: "POST",
      headers: u.headers,
    });
    assert.equal(rotated.status, 200);
    const fresh = new URL(rotated.body.webhookUrl).pathname;
    assert.match(fresh, /^\/hooks\/[A-Za-z0-9_-]{22}$/);
    assert.notEqual(fresh, w.hook);
    await problem(
      await t.request(`${w.hook}/jellyfin`, jsonPost(payloads.jellyfinStop())),
      404,
      "not_found",
    );
    assert.equal(await hookPath(t, u), fresh);
    for (let i = 0; i < 52; i++) {
      t.clock.advance(2_000);
      const res = await t.request(`${fresh}/jellyfin`, jsonPost({ NotificationType: `Event${i}` }));
      await res.body?.cancel();
    }
    const kept = await events(t, u);
    assert.equal(kept.length, 50);
    assert.equal(kept[0].event, "Event51");
    assert.equal(kept[49].event, "Event2");
  });
}
