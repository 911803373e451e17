/**
 * Web Push channels through the API on both stores (docs/alerts.md, "Web Push"): a browser's
 * subscription becomes a webpush channel, its test button delivers a message the push service
 * decrypts with the subscription's own keys, a push service's 410 removes the channel, and a
 * subscription that could never be delivered to is refused with 400.
 */
import assert from "node:assert/strict";
import { ENGINES } from "./helpers/store.ts";
import { testApp } from "./helpers/app.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { problem } from "./helpers/problems.ts";
import { startFakePushService } from "./helpers/fake_push_service.ts";

type T = { request(p: string, i?: RequestInit): Promise<Response> };

function send(t: T, user: TestUser, path: string, method: string, body?: unknown) {
  return t.request(path, {
    method,
    headers: { ...user.headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

function bytesOf(text: string): Uint8Array {
  const b64 = text.replaceAll("-", "+").replaceAll("_", "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - b64.length % 4) % 4)), (c) => c.charCodeAt(0));
}

/** The app with a push service on 127.0.0.1 (the operator's switch lets channels reach it). */
async function world(engine: (typeof ENGINES)[number]) {
  const push = await startFakePushService();
  const t = await testApp({
    engine,
    fetch: push.fetch,
    env: { ALERT_PRIVATE_TARGETS: "allow", SITE_URL: "https://movies.example" },
  });
  const user = await createUser(t.deps);
  const { publicKey } = await (await t.request("/api/push/key")).json();
  /** Subscribes a "browser" with the server's key and adds it as a channel. */
  const addDevice = async () => {
    const sub = await push.subscribe(publicKey);
    const res = await send(t, user, "/api/me/alerts/channels", "POST", {
      type: "webpush",
      name: "Pixel",
      subscription: { ...sub.json, expirationTime: null },
    });
    assert.equal(res.status, 201);
    return { sub, channel: await res.json() };
  };
  return {
    t,
    push,
    user,
    publicKey,
    addDevice,
    async [Symbol.asyncDispose]() {
      await t[Symbol.asyncDispose]();
      await push.close();
    },
  };
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] A webpush channel's test is delivered, and the push service decrypts the test message`, async () => {
    await using w = await world(engine);
    const { sub, channel } = await w.addDevice();
    assert.equal(channel.type, "webpush");
    assert.equal(channel.name, "Pixel");
    assert.equal(channel.enabled, true);
    // Only the push service's scheme and host are ever shown, never the device's endpoint.
    assert.equal(channel.target, `${w.push.origin}/…`);
    assert.equal(JSON.stringify(channel).includes(sub.id), false);

    const res = await send(w.t, w.user, `/api/me/alerts/channels/${channel.id}/test`, "POST");
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { delivered: true });
    assert.equal(w.push.deliveries.length, 1);
    const [got] = w.push.deliveries;
    assert.equal(got.subscriptionId, sub.id);
    assert.equal(got.refusal, "");
    assert.equal(got.headers.get("ttl"), "86400");
    assert.deepEqual(JSON.parse(got.text), {
      title: "Test alert",
      body: "This channel works: alerts about the films on your list will arrive here.",
      url: "https://movies.example/account#alerts",
      icon: "https://movies.example/static/icons/icon-192.png",
      tag: "test-",
    });
    const listed = (await (await w.t.request("/api/me/alerts", { headers: w.user.headers }))
      .json()).channels;
    assert.equal(listed.length, 1);
    assert.equal(listed[0].lastError, null);
    assert.match(listed[0].lastDeliveryAt, /^\d{4}-\d\d-\d\dT/);
  });

  Deno.test(`[${engine}] The same browser allowing notifications again replaces its channel instead of adding one`, async () => {
    await using w = await world(engine);
    const { sub, channel } = await w.addDevice();
    const again = await send(w.t, w.user, "/api/me/alerts/channels", "POST", {
      type: "webpush",
      name: "Pixel again",
      subscription: sub.json,
    });
    assert.equal(again.status, 201);
    assert.equal((await again.json()).id, channel.id);
    const listed = (await (await w.t.request("/api/me/alerts", { headers: w.user.headers }))
      .json()).channels;
    assert.deepEqual(listed.map((c: { name: string }) => c.name), ["Pixel again"]);
  });

  Deno.test(`[${engine}] A film's alert goes through the queue to the device: the payload decrypted is the film's message`, async () => {
    await using w = await world(engine);
    const { sub } = await w.addDevice();
    const catalogId = 930_000 + Math.floor(Math.random() * 50_000);
    await w.t.store.query(
      `insert into public.movies (catalog_id, title, year, poster_path)
        values ($1, 'Dune', 2021, '/dune.jpg') on conflict (catalog_id) do nothing`,
      [catalogId],
    );
    await w.t.store.query(
      `insert into public.user_notifications
          (user_id, kind, catalog_id, provider_id, provider_name, region)
        values ($1, 'now_streaming', $2, 8, 'Netflix', 'DE')`,
      [w.user.id, catalogId],
    );
    await w.t.services.alertDelivery.drain();
    assert.equal(w.push.deliveries.length, 1);
    const [got] = w.push.deliveries;
    assert.equal(got.subscriptionId, sub.id);
    assert.equal(got.refusal, "");
    assert.equal(got.headers.get("ttl"), "86400");
    assert.deepEqual(JSON.parse(got.text), {
      title: "Dune (2021) is now streaming",
      body: "On Netflix in DE.",
      url: `https://movies.example/movies/${catalogId}`,
      icon: "https://movies.example/static/icons/icon-192.png",
      image: `${w.t.config.tmdb.imageBaseUrl}/w342/dune.jpg`,
      tag: `now_streaming-${catalogId}`,
    });

    // The same device forgotten by its push service: the next alert removes the channel.
    w.push.answer(410, sub.id);
    await w.t.store.query(
      `insert into public.user_notifications
          (user_id, kind, catalog_id, provider_id, provider_name, region)
        values ($1, 'now_streaming', $2, 337, 'Disney Plus', 'DE')`,
      [w.user.id, catalogId],
    );
    await w.t.services.alertDelivery.drain();
    assert.equal(w.push.deliveries.length, 2);
    const listed = (await (await w.t.request("/api/me/alerts", { headers: w.user.headers }))
      .json()).channels;
    assert.deepEqual(listed, []);
  });

  Deno.test(`[${engine}] A push service's 410 at a test removes the webpush channel`, async () => {
    await using w = await world(engine);
    const { sub, channel } = await w.addDevice();
    const other = await w.addDevice();
    w.push.answer(410, sub.id);
    const res = await send(w.t, w.user, `/api/me/alerts/channels/${channel.id}/test`, "POST");
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.delivered, false);
    assert.match(body.error, /gone \(410\)/);
    const listed = (await (await w.t.request("/api/me/alerts", { headers: w.user.headers }))
      .json()).channels;
    assert.deepEqual(listed.map((c: { id: string }) => c.id), [other.channel.id]);
    const again = await send(w.t, w.user, `/api/me/alerts/channels/${channel.id}/test`, "POST");
    assert.equal(again.status, 404);
    await again.body?.cancel();
  });

  Deno.test(`[${engine}] A push service's 500 at a test keeps the channel and shows the error`, async () => {
    await using w = await world(engine);
    const { channel } = await w.addDevice();
    w.push.answer(500);
    const res = await send(w.t, w.user, `/api/me/alerts/channels/${channel.id}/test`, "POST");
    const body = await res.json();
    assert.equal(body.delivered, false);
    assert.equal(body.error, "the push service answered 500");
    const listed = (await (await w.t.request("/api/me/alerts", { headers: w.user.headers }))
      .json()).channels;
    assert.equal(listed.length, 1);
    assert.equal(listed[0].lastError, "the push service answered 500");
  });

  Deno.test(`[${engine}] A webpush subscription without keys, on http, or with keys of the wrong length answers 400 invalid_body`, async () => {
    await using w = await world(engine);
    const { json } = await w.push.subscribe(w.publicKey);
    const p256dh = bytesOf(json.keys.p256dh);
    const auth = bytesOf(json.keys.auth);
    const bad: [string, unknown][] = [
      ["no keys", { endpoint: json.endpoint }],
      ["no auth", { endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh } }],
      ["no endpoint", { keys: json.keys }],
      ["http endpoint", { ...json, endpoint: json.endpoint.replace("https:", "http:") }],
      ["p256dh of 64 bytes", {
        ...json,
        keys: { ...json.keys, p256dh: base64url(p256dh.slice(1)) },
      }],
      ["p256dh of 66 bytes", {
        ...json,
        keys: { ...json.keys, p256dh: base64url(new Uint8Array([...p256dh, 0])) },
      }],
      ["auth of 15 bytes", { ...json, keys: { ...json.keys, auth: base64url(auth.slice(1)) } }],
      ["auth of 17 bytes", {
        ...json,
        keys: { ...json.keys, auth: base64url(new Uint8Array([...auth, 0])) },
      }],
      ["p256dh not base64url", {
        ...json,
        keys: { ...json.keys, p256dh: "+/+/" + json.keys.p256dh },
      }],
    ];
    for (const [what, subscription] of bad) {
      const res = await send(w.t, w.user, "/api/me/alerts/channels", "POST", {
        type: "webpush",
        subscription,
      });
      await problem(res, 400, "invalid_body", what);
    }
    const listed = (await (await w.t.request("/api/me/alerts", { headers: w.user.headers }))
      .json()).channels;
    assert.deepEqual(listed, []);
  });
}

Deno.test("A webpush endpoint on a private address is refused (400 invalid_target) unless the operator allows them", async () => {
  const push = await startFakePushService();
  await using t = await testApp({ fetch: push.fetch });
  try {
    const user = await createUser(t.deps);
    const { publicKey } = await (await t.request("/api/push/key")).json();
    const { json } = await push.subscribe(publicKey);
    const res = await send(t, user, "/api/me/alerts/channels", "POST", {
      type: "webpush",
      subscription: json,
    });
    await problem(res, 400, "invalid_target");
  } finally {
    await push.close();
  }
});
