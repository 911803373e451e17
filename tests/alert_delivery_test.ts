import assert from "node:assert/strict";
import { ENGINES } from "./helpers/store.ts";
import { type TestApp, testApp } from "./helpers/app.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { startFakeNtfy } from "./helpers/fake_ntfy.ts";
import { startFakeDiscord } from "./helpers/fake_discord.ts";
import { startFakeStandardWebhooks } from "./helpers/fake_standard_webhooks.ts";
import { startFakeApprise } from "./helpers/fake_apprise.ts";
import { createDeliveryWorker } from "@/lib/catalog/notifications/delivery/mod.ts";
import { SENDERS } from "@/lib/catalog/notifications/channels/mod.ts";
import type { FakeClock } from "@/lib/core/clock.ts";

// Fakes listen on 127.0.0.1: the operator's switch lets a channel reach them.
const LAN = { ALERT_PRIVATE_TARGETS: "allow" };

async function addChannel(t: TestApp<FakeClock>, user: TestUser, body: unknown) {
  const res = await t.request("/api/me/alerts/channels", {
    method: "POST",
    headers: { ...user.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 201, JSON.stringify(body));
  return await res.json();
}

let movieId = 900_000 + Math.floor(Math.random() * 50_000);

/** A stored film and a "now streaming" notification of it for `user`; returns the film's id. */
async function notifyStreaming(t: TestApp<FakeClock>, user: TestUser, title = "Dune") {
  const id = movieId++;
  await t.store.query(
    `insert into public.movies (catalog_id, title, year, poster_path)
      values ($1, $2, 2021, '/dune.jpg') on conflict (catalog_id) do nothing`,
    [id, title],
  );
  await t.store.query(
    `insert into public.user_notifications
        (user_id, kind, catalog_id, provider_id, provider_name, region)
      values ($1, 'now_streaming', $2, 8, 'Netflix', 'DE')`,
    [user.id, id],
  );
  return id;
}

async function queued(t: TestApp<FakeClock>, user: TestUser) {
  return await t.store.query<{ type: string; attempts: number; last_error: string | null }>(
    `select c.type, d.attempts, d.last_error from public.alert_deliveries d
       join public.alert_channels c on c.id = d.channel_id
      where c.user_id = $1 order by d.created_at`,
    [user.id],
  );
}

async function channelRow(t: TestApp<FakeClock>, id: string) {
  const [row] = await t.store.query<{
    enabled: boolean;
    consecutive_failures: number;
    last_error: string | null;
  }>(
    `select enabled, consecutive_failures, last_error from public.alert_channels where id = $1`,
    [id],
  );
  return row;
}

async function bell(t: TestApp<FakeClock>, user: TestUser) {
  const res = await t.request("/api/notifications", { headers: user.headers });
  assert.equal(res.status, 200);
  return (await res.json()).notifications;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a new notification is queued for each enabled channel but email, and each type delivers it`, async () => {
    await using t = await testApp({ engine, env: LAN });
    const user = await createUser(t.deps);
    await using ntfy = startFakeNtfy({ token: "tk_1" });
    await using discord = startFakeDiscord();
    await using hooks = startFakeStandardWebhooks({ now: () => t.clock.now() });
    await using apprise = startFakeApprise();
    await addChannel(t, user, { type: "ntfy", url: ntfy.topicUrl("films"), token: "tk_1" });
    await addChannel(t, user, { type: "discord", url: discord.webhookUrl });
    hooks.secret = (await addChannel(t, user, { type: "webhook", url: `${hooks.url}/in` })).secret;
    await addChannel(t, user, { type: "apprise", url: apprise.notifyUrl });
    await addChannel(t, user, { type: "email" });
    const off = await addChannel(t, user, { type: "ntfy", url: ntfy.topicUrl("muted") });
    await t.request(`/api/me/alerts/channels/${off.id}`, {
      method: "PATCH",
      headers: { ...user.headers, "content-type": "application/json" },
      body: JSON.stringify({ enabled: false }),
    });

    const catalogId = await notifyStreaming(t, user, "Amélie");
    assert.deepEqual((await queued(t, user)).map((q) => q.type).sort(), [
      "apprise",
      "discord",
      "ntfy",
      "webhook",
    ]);
    await t.services.alertDelivery.drain();
    assert.deepEqual(await queued(t, user), []);

    const movieUrl = `${t.config.siteUrl}/movies/${catalogId}`;
    assert.equal(ntfy.messages.length, 1);
    assert.deepEqual(ntfy.messages[0], {
      topic: "films",
      message: "On Netflix in DE.",
      title: "Amélie (2021) is now streaming",
      click: movieUrl,
      tags: ["tv"],
      authorization: "Bearer tk_1",
    });
    const [embed] = discord.posts[0].embeds;
    assert.equal(embed.title, "Amélie (2021) is now streaming");
    assert.equal(embed.url, movieUrl);
    assert.equal(embed.description, "On Netflix in DE.");
    assert.equal(embed.thumbnail?.url, `${t.config.tmdb.imageBaseUrl}/w342/dune.jpg`);
    assert.equal(hooks.refused.length, 0);
    assert.deepEqual(hooks.verified[0].body, {
      kind: "now_streaming",
      createdAt: hooks.verified[0].body.createdAt,
      movie: {
        catalogId,
        title: "Amélie",
        year: 2021,
        url: movieUrl,
        poster: `${t.config.tmdb.imageBaseUrl}/w342/dune.jpg`,
      },
      provider: { id: 8, name: "Netflix" },
      region: "DE",
    });
    assert.match(hooks.verified[0].id!, /^msg_[0-9a-f-]{36}$/);
    assert.deepEqual(apprise.notifications[0], {
      key: "movies",
      title: "Amélie (2021) is now streaming",
      body: `On Netflix in DE.\n${movieUrl}`,
      type: "info",
    });
    const { channels } = await (await t.request("/api/me/alerts", { headers: user.headers }))
      .json();
    for (const c of channels.filter((c: { type: string }) => c.type !== "email")) {
      if (c.id === off.id) assert.equal(c.lastDeliveryAt, null);
      else assert.equal(c.lastDeliveryAt, new Date(t.clock.now()).toISOString(), c.type);
    }
  });

  Deno.test(`[${engine}] a failing channel is tried 3 times, 30 s then 2 min apart, then counts one failure; the alert stays in the bell`, async () => {
    await using t = await testApp({ engine, env: LAN });
    const user = await createUser(t.deps);
    await using ntfy = startFakeNtfy();
    ntfy.failWith = 502;
    const channel = await addChannel(t, user, { type: "ntfy", url: ntfy.topicUrl("films") });
    await notifyStreaming(t, user);
    const worker = t.services.alertDelivery;

    await worker.drain();
    assert.equal(ntfy.received, 0); // failWith answers before the topic handler
    let rows = await queued(t, user);
    assert.equal(rows.length, 1);
    assert.equal(rows[0].attempts, 1);
    assert.match(rows[0].last_error!, /HTTP 502/);
    t.clock.advance(29_999);
    await worker.drain();
    assert.equal((await queued(t, user))[0].attempts, 1, "not before 30 s");
    t.clock.advance(1);
    await worker.drain();
    assert.equal((await queued(t, user))[0].attempts, 2);
    t.clock.advance(119_999);
    await worker.drain();
    assert.equal((await queued(t, user))[0].attempts, 2, "not before 2 min more");
    t.clock.advance(1);
    await worker.drain();
    rows = await queued(t, user);
    assert.deepEqual(rows, [], "3 attempts in all");
    const row = await channelRow(t, channel.id);
    assert.deepEqual([row.enabled, row.consecutive_failures], [true, 1]);
    assert.match(row.last_error!, /HTTP 502/);
    assert.equal((await bell(t, user)).length, 1, "the alert stays in the bell");

    // The server is back: the next alert arrives and the count starts again.
    ntfy.failWith = undefined;
    await notifyStreaming(t, user, "Arrival");
    await worker.drain();
    assert.equal(ntfy.messages.length, 1);
    assert.equal((await channelRow(t, channel.id)).consecutive_failures, 0);
  });

  Deno.test(`[${engine}] 10 failed deliveries in a row switch the channel off and leave a channel_disabled notice, sent to the other channels`, async () => {
    await using t = await testApp({ engine, env: LAN });
    const user = await createUser(t.deps);
    await using apprise = startFakeApprise();
    await using discord = startFakeDiscord();
    apprise.failWith = 500;
    const failing = await addChannel(t, user, {
      type: "apprise",
      url: apprise.notifyUrl,
      name: "Home Apprise",
    });
    await addChannel(t, user, { type: "discord", url: discord.webhookUrl });
    for (let i = 0; i < 10; i++) await notifyStreaming(t, user, `Film ${i}`);
    const worker = t.services.alertDelivery;
    await worker.drain();
    t.clock.advance(30_000);
    await worker.drain();
    assert.equal((await channelRow(t, failing.id)).enabled, true, "9 is not yet 10");
    t.clock.advance(120_000);
    await worker.drain();

    const row = await channelRow(t, failing.id);
    assert.deepEqual([row.enabled, row.consecutive_failures], [false, 10]);
    const notices = (await bell(t, user)).filter((n: { kind: string }) =>
      n.kind === "channel_disabled"
    );
    assert.equal(notices.length, 1);
    assert.equal(JSON.stringify(notices[0]).includes("Home Apprise"), true);
    // The working channel got the 10 alerts and the notice; the switched-off one gets nothing more.
    assert.equal(discord.posts.length, 11);
    assert.equal(discord.posts[10].embeds[0].title, "Alert channel switched off");
    assert.match(discord.posts[10].embeds[0].description!, /"Home Apprise" failed 10 times/);
    await notifyStreaming(t, user, "After");
    assert.deepEqual((await queued(t, user)).map((q) => q.type), ["discord"]);
  });

  Deno.test(`[${engine}] a channel that never answers holds one slot: another channel's alerts arrive meanwhile`, async () => {
    await using t = await testApp({ engine, env: LAN });
    const user = await createUser(t.deps);
    await using ntfy = startFakeNtfy();
    await using discord = startFakeDiscord();
    ntfy.hang = true;
    const dead = await addChannel(t, user, { type: "ntfy", url: ntfy.topicUrl("films") });
    await addChannel(t, user, { type: "discord", url: discord.webhookUrl });
    for (let i = 0; i < 5; i++) await notifyStreaming(t, user, `Film ${i}`);
    const worker = createDeliveryWorker(t.deps, { attemptMs: 2_000 });
    worker.start();
    // All five reach Discord while the dead channel's first attempt is still waiting.
    while (discord.posts.length < 5) await new Promise((r) => setTimeout(r, 20));
    const [pending] = await t.store.query<{ attempts: number; leased: boolean }>(
      `select max(attempts) as attempts, bool_or(lease_until is not null) as leased
         from public.alert_deliveries where channel_id = $1`,
      [dead.id],
    );
    assert.deepEqual([Number(pending.attempts), pending.leased], [1, true]);
    await worker.stop();
    const rows = (await queued(t, user)).filter((q) => q.type === "ntfy");
    assert.equal(rows.length, 5, "the dead channel's alerts wait for their turn");
    assert.match(rows[0].last_error!, /no answer within 2 s/);
    assert.equal(rows[0].attempts, 1);
  });

  Deno.test(`[${engine}] two instances draining one queue deliver each alert once`, async () => {
    await using t = await testApp({ engine, env: LAN });
    const user = await createUser(t.deps);
    await using hooks = startFakeStandardWebhooks({ now: () => t.clock.now() });
    await using ntfy = startFakeNtfy();
    hooks.secret = (await addChannel(t, user, { type: "webhook", url: hooks.url })).secret;
    await addChannel(t, user, { type: "ntfy", url: ntfy.topicUrl("films") });
    for (let i = 0; i < 12; i++) await notifyStreaming(t, user, `Film ${i}`);
    const a = createDeliveryWorker(t.deps);
    const b = createDeliveryWorker(t.deps);
    await Promise.all([a.drain(), b.drain(), a.drain()]);
    assert.equal(hooks.verified.length, 12);
    assert.equal(new Set(hooks.verified.map((v) => v.id)).size, 12);
    assert.equal(ntfy.messages.length, 12);
    assert.equal(new Set(ntfy.messages.map((m) => m.title)).size, 12);
  });

  Deno.test(`[${engine}] a push subscription its service forgot (remove) drops the channel; a switched-off channel's queued alerts are dropped unsent`, async () => {
    await using t = await testApp({ engine, env: LAN });
    const user = await createUser(t.deps);
    await using ntfy = startFakeNtfy();
    const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, [
      "deriveBits",
    ]);
    const b64url = (bytes: Uint8Array) =>
      btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(
        /=+$/,
        "",
      );
    const push = await addChannel(t, user, {
      type: "webpush",
      subscription: {
        endpoint: "https://push.invalid/send/abc",
        keys: {
          p256dh: b64url(new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey))),
          auth: b64url(crypto.getRandomValues(new Uint8Array(16))),
        },
      },
    });
    const muted = await addChannel(t, user, { type: "ntfy", url: ntfy.topicUrl("films") });
    await notifyStreaming(t, user);
    await t.store.query(`update public.alert_channels set enabled = false where id = $1`, [
      muted.id,
    ]);
    const worker = createDeliveryWorker(t.deps, {
      senders: {
        ...SENDERS,
        webpush: () => Promise.resolve({ delivered: false, error: "HTTP 410", remove: true }),
      },
    });
    await worker.drain();
    assert.equal(await channelRow(t, push.id), undefined);
    assert.deepEqual(await queued(t, user), []);
    assert.equal(ntfy.messages.length, 0);
    assert.equal((await bell(t, user)).length, 1);
  });
}
