/**
 * Web Push (docs/alerts.md, "Web Push"): the VAPID key pair (generated once into DATA_DIR, or
 * VAPID_PRIVATE_KEY for several instances), GET /api/push/key, the subscription a channel is
 * made with, and the sender against a push service on 127.0.0.1 that verifies the VAPID JWT and
 * decrypts the message with the subscription's own keys.
 */
import assert from "node:assert/strict";
import webpush from "web-push";
import { testApp } from "./helpers/app.ts";
import { startFakePushService } from "./helpers/fake_push_service.ts";
import { FakeClock } from "@/lib/core/clock.ts";
import { ConfigError, loadConfig } from "@/lib/core/config.ts";
import type { AlertMessage, StoredChannel } from "@/lib/catalog/notifications/channels/types.ts";
import { PUSH_TTL_SECONDS, sendWebPush } from "@/lib/catalog/notifications/channels/webpush.ts";
import {
  pushPayload,
  pushSubscriptionSchema,
  vapidKeys,
  vapidSubject,
} from "@/lib/catalog/notifications/web_push/mod.ts";

function bytesOf(base64url: string): Uint8Array {
  const b64 = base64url.replaceAll("-", "+").replaceAll("_", "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - b64.length % 4) % 4)), (c) => c.charCodeAt(0));
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

const MESSAGE: AlertMessage = {
  kind: "in_theaters",
  createdAt: "2026-11-22T12:00:00.000Z",
  movie: {
    catalogId: 438631,
    title: "Dune",
    year: 2021,
    url: "https://movies.example/movies/438631",
    poster: "https://image.tmdb.org/t/p/w342/d5NXSklXo0qyIYkgV94XAgMIckC.jpg",
  },
  region: "DE",
  releaseType: "theatrical",
  title: "Dune (2021) is in theaters",
  body: "In theaters in DE since 22 November",
};

async function senderWorld() {
  const dataDir = await Deno.makeTempDir({ prefix: "webpush-test-" });
  const config = loadConfig({ DATA_DIR: dataDir, SITE_URL: "https://movies.example" });
  const push = await startFakePushService();
  const keys = await vapidKeys(config);
  const deps = {
    fetch: push.fetch,
    signal: AbortSignal.timeout(10_000),
    clock: new FakeClock(),
    config,
  };
  const channel = async (applicationServerKey = keys.publicKey): Promise<StoredChannel> => {
    const sub = await push.subscribe(applicationServerKey);
    return {
      id: crypto.randomUUID(),
      userId: crypto.randomUUID(),
      name: "Phone",
      enabled: true,
      type: "webpush",
      subscription: sub.json,
    };
  };
  return {
    push,
    deps,
    config,
    keys,
    channel,
    async [Symbol.asyncDispose]() {
      await push.close();
      await Deno.remove(dataDir, { recursive: true });
    },
  };
}

Deno.test("A web push is delivered and the push service decrypts exactly the message's payload", async () => {
  await using w = await senderWorld();
  const channel = await w.channel();
  const result = await sendWebPush(channel, MESSAGE, w.deps);
  assert.deepEqual(result, { delivered: true });
  assert.equal(w.push.deliveries.length, 1);
  const [got] = w.push.deliveries;
  assert.equal(got.refusal, "");
  assert.deepEqual(JSON.parse(got.text), {
    title: "Dune (2021) is in theaters",
    body: "In theaters in DE since 22 November",
    url: "https://movies.example/movies/438631",
    icon: "https://movies.example/static/icons/icon-192.png",
    image: "https://image.tmdb.org/t/p/w342/d5NXSklXo0qyIYkgV94XAgMIckC.jpg",
    tag: "in_theaters-438631",
  });
  assert.deepEqual(JSON.parse(got.text), pushPayload(MESSAGE, "https://movies.example"));
});

Deno.test("A web push asks the push service to keep it a day (TTL 86400) and signs for the endpoint's origin", async () => {
  await using w = await senderWorld();
  await sendWebPush(await w.channel(), MESSAGE, w.deps);
  const [got] = w.push.deliveries;
  assert.equal(PUSH_TTL_SECONDS, 86_400);
  assert.equal(got.headers.get("ttl"), "86400");
  assert.equal(got.headers.get("content-encoding"), "aes128gcm");
  assert.equal(got.claims.aud, w.push.origin);
  assert.equal(got.claims.sub, "https://movies.example");
  const exp = Number(got.claims.exp);
  assert.ok(exp > Date.now() / 1000 && exp <= Date.now() / 1000 + 24 * 3600);
  assert.match(got.headers.get("authorization") ?? "", new RegExp(`, k=${w.keys.publicKey}$`));
});

Deno.test("A web push of a film without a poster or a title of 5,000 characters is still delivered, cut to fit", async () => {
  await using w = await senderWorld();
  const long: AlertMessage = {
    ...MESSAGE,
    movie: { ...MESSAGE.movie!, poster: null },
    title: "T".repeat(5_000),
    body: "B".repeat(5_000),
  };
  assert.deepEqual(await sendWebPush(await w.channel(), long, w.deps), { delivered: true });
  const payload = JSON.parse(w.push.deliveries[0].text);
  assert.equal(payload.title.length, 200);
  assert.equal(payload.body.length, 1_000);
  assert.equal("image" in payload, false);
});

Deno.test("A title of 200 characters and a body of 1,000 are sent whole; one more is cut with an ellipsis", () => {
  const payload = (title: string, body: string) =>
    pushPayload({ ...MESSAGE, title, body }, "https://movies.example");
  const whole = payload("T".repeat(200), "B".repeat(1_000));
  assert.equal(whole.title, "T".repeat(200));
  assert.equal(whole.body, "B".repeat(1_000));
  const cut = payload("T".repeat(201), "B".repeat(1_001));
  assert.equal(cut.title, `${"T".repeat(199)}…`);
  assert.equal(cut.body, `${"B".repeat(999)}…`);
});

Deno.test("A notice naming no film opens the alerts section of /account", async () => {
  await using w = await senderWorld();
  const notice: AlertMessage = {
    kind: "channel_disabled",
    createdAt: MESSAGE.createdAt,
    movie: null,
    channelName: "Old phone",
    title: "Old phone was turned off",
    body: "10 deliveries in a row failed.",
  };
  assert.deepEqual(await sendWebPush(await w.channel(), notice, w.deps), { delivered: true });
  const payload = JSON.parse(w.push.deliveries[0].text);
  assert.equal(payload.url, "https://movies.example/account#alerts");
  assert.equal(payload.tag, "channel_disabled-Old phone");
});

for (const status of [404, 410]) {
  Deno.test(`A push service's ${status} says the subscription is gone: not delivered, remove the channel`, async () => {
    await using w = await senderWorld();
    w.push.answer(status);
    const result = await sendWebPush(await w.channel(), MESSAGE, w.deps);
    assert.equal(result.delivered, false);
    assert.equal(!result.delivered && result.remove, true);
    assert.match(!result.delivered ? result.error : "", new RegExp(`gone \\(${status}\\)`));
  });
}

for (const status of [500, 503, 429, 413]) {
  Deno.test(`A push service's ${status} is a failed delivery that keeps the channel`, async () => {
    await using w = await senderWorld();
    w.push.answer(status);
    const result = await sendWebPush(await w.channel(), MESSAGE, w.deps);
    assert.equal(result.delivered, false);
    assert.equal(!result.delivered && result.remove, undefined);
    assert.match(!result.delivered ? result.error : "", new RegExp(`\\(?${status}\\)?`));
  });
}

Deno.test("A subscription made with another server's key is refused (403) and the error names the VAPID key", async () => {
  await using w = await senderWorld();
  const other = webpush.generateVAPIDKeys();
  const result = await sendWebPush(await w.channel(other.publicKey), MESSAGE, w.deps);
  assert.equal(result.delivered, false);
  assert.match(!result.delivered ? result.error : "", /VAPID key \(403\)/);
  assert.equal(w.push.deliveries[0].refusal, "k is not the subscription's key");
});

Deno.test("An unreachable push service is a failed delivery whose error never quotes the endpoint", async () => {
  await using w = await senderWorld();
  const channel = await w.channel();
  await w.push.close();
  const result = await sendWebPush(channel, MESSAGE, w.deps);
  assert.equal(result.delivered, false);
  const error = !result.delivered ? result.error : "";
  assert.match(error, /could not be reached/);
  assert.equal(error.includes("127.0.0.1"), false);
  assert.equal(error.includes("/push/"), false);
});

Deno.test("The VAPID key pair is generated once into DATA_DIR (mode 600) and read back from there", async () => {
  const dataDir = await Deno.makeTempDir({ prefix: "webpush-keys-" });
  try {
    const config = loadConfig({ DATA_DIR: dataDir });
    const keys = await vapidKeys(config);
    const file = JSON.parse(await Deno.readTextFile(`${dataDir}/vapid-keys.json`));
    assert.equal(file.privateKey, keys.privateKey);
    assert.equal((await Deno.stat(`${dataDir}/vapid-keys.json`)).mode! & 0o777, 0o600);
    const raw = bytesOf(keys.publicKey);
    assert.equal(raw.length, 65);
    assert.equal(raw[0], 4);
    assert.equal(bytesOf(keys.privateKey).length, 32);
    assert.deepEqual(await vapidKeys(config), keys);

    // Another process on the same directory: a file written by a server before it is read.
    const made = webpush.generateVAPIDKeys();
    const other = await Deno.makeTempDir({ prefix: "webpush-keys-" });
    await Deno.writeTextFile(`${other}/vapid-keys.json`, JSON.stringify(made));
    assert.deepEqual(await vapidKeys(loadConfig({ DATA_DIR: other })), made);
    await Deno.remove(other, { recursive: true });
  } finally {
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("GET /api/push/key answers the generated public key, the same on every call", async () => {
  await using t = await testApp();
  const first = await (await t.request("/api/push/key")).json();
  const res = await t.request("/api/push/key");
  assert.equal(res.status, 200);
  const body = await res.json();
  assert.deepEqual(Object.keys(body), ["publicKey"]);
  assert.equal(body.publicKey, first.publicKey);
  assert.match(body.publicKey, /^[A-Za-z0-9_-]{87}$/);
  const stored = JSON.parse(await Deno.readTextFile(`${t.dataDir}/vapid-keys.json`));
  assert.equal(stored.publicKey, body.publicKey);
});

Deno.test("VAPID_PRIVATE_KEY gives every instance the same public key and writes nothing into DATA_DIR", async () => {
  const pair = webpush.generateVAPIDKeys();
  await using a = await testApp({ env: { VAPID_PRIVATE_KEY: pair.privateKey } });
  await using b = await testApp({ env: { VAPID_PRIVATE_KEY: pair.privateKey } });
  for (const t of [a, b]) {
    const body = await (await t.request("/api/push/key")).json();
    assert.equal(body.publicKey, pair.publicKey);
    await assert.rejects(Deno.stat(`${t.dataDir}/vapid-keys.json`), Deno.errors.NotFound);
  }
});

Deno.test("VAPID_PRIVATE_KEY must be base64url of exactly 32 bytes, on the curve", async () => {
  const ok = base64url(bytesOf(webpush.generateVAPIDKeys().privateKey));
  assert.equal(loadConfig({ VAPID_PRIVATE_KEY: ok }).vapid.privateKey, ok);
  for (
    const bad of [
      base64url(new Uint8Array(31).fill(7)),
      base64url(new Uint8Array(33).fill(7)),
      "not a key!",
    ]
  ) {
    assert.throws(() => loadConfig({ VAPID_PRIVATE_KEY: bad }), ConfigError);
  }
  // 32 bytes, but 0 is not a private key of P-256: refused where the key is used.
  const zero = loadConfig({ VAPID_PRIVATE_KEY: base64url(new Uint8Array(32)) });
  await assert.rejects(vapidKeys(zero), /not a valid P-256 key/);
});

Deno.test("VAPID_SUBJECT must be mailto: or https:; unset it is SITE_URL when https, else mailto: MAIL_FROM", () => {
  assert.throws(() => loadConfig({ VAPID_SUBJECT: "http://movies.example" }), ConfigError);
  assert.throws(() => loadConfig({ VAPID_SUBJECT: "ops@movies.example" }), ConfigError);
  const given = loadConfig({ VAPID_SUBJECT: "mailto:ops@movies.example" });
  assert.equal(vapidSubject(given), "mailto:ops@movies.example");
  assert.equal(
    vapidSubject(loadConfig({ SITE_URL: "https://movies.example" })),
    "https://movies.example",
  );
  assert.equal(
    vapidSubject(
      loadConfig({ SITE_URL: "http://box.lan:8000", MAIL_FROM: "Movies <alerts@box.lan>" }),
    ),
    "mailto:alerts@box.lan",
  );
  assert.equal(
    vapidSubject(loadConfig({ SITE_URL: "http://box.lan:8000" })),
    "mailto:no-reply@box.lan",
  );
});

Deno.test("A push subscription needs an https endpoint, a 65-byte point on P-256 and a 16-byte auth secret", async () => {
  await using w = await senderWorld();
  const { json } = await w.push.subscribe(w.keys.publicKey);
  const parse = (value: unknown) => pushSubscriptionSchema.safeParse(value).success;
  assert.equal(parse(json), true);
  assert.equal(parse({ ...json, expirationTime: null }), true);
  assert.equal(parse({ endpoint: json.endpoint }), false);
  assert.equal(parse({ endpoint: json.endpoint, keys: { p256dh: json.keys.p256dh } }), false);
  assert.equal(parse({ ...json, endpoint: json.endpoint.replace("https:", "http:") }), false);
  assert.equal(parse({ ...json, endpoint: "not a url" }), false);
  // 2,048 characters at most.
  const at = (length: number) => {
    const head = "https://push.example/";
    return `${head}${"x".repeat(length - head.length)}`;
  };
  assert.equal(parse({ ...json, endpoint: at(2048) }), true);
  assert.equal(parse({ ...json, endpoint: at(2049) }), false);
  const p256dh = bytesOf(json.keys.p256dh);
  const auth = bytesOf(json.keys.auth);
  const withKeys = (keys: Record<string, string>) => ({ ...json, keys: { ...json.keys, ...keys } });
  assert.equal(parse(withKeys({ p256dh: base64url(p256dh.slice(0, 64)) })), false);
  assert.equal(parse(withKeys({ p256dh: base64url(new Uint8Array([...p256dh, 1])) })), false);
  // 65 bytes in the uncompressed form, but not a point on the curve.
  const off = p256dh.slice();
  off[64] ^= 1;
  assert.equal(parse(withKeys({ p256dh: base64url(off) })), false);
  assert.equal(parse(withKeys({ p256dh: "not base64url!" })), false);
  assert.equal(parse(withKeys({ auth: base64url(auth.slice(0, 15)) })), false);
  assert.equal(parse(withKeys({ auth: base64url(new Uint8Array([...auth, 1])) })), false);
  assert.deepEqual(pushSubscriptionSchema.parse({ ...json, extra: true }), json);
});
