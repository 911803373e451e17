import assert from "node:assert/strict";
import { ENGINES } from "./helpers/store.ts";
import { testApp } from "./helpers/app.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { problem } from "./helpers/problems.ts";
import { startFakeNtfy } from "./helpers/fake_ntfy.ts";
import { startFakeDiscord } from "./helpers/fake_discord.ts";
import { startFakeStandardWebhooks } from "./helpers/fake_standard_webhooks.ts";
import { startFakeApprise } from "./helpers/fake_apprise.ts";
import { startFakeSmtp } from "./helpers/fake_smtp.ts";
import { createAlertsService } from "@/lib/catalog/notifications/channels/service.ts";
import { isPrivateAddress, maskTarget } from "@/lib/catalog/notifications/channels/target_guard.ts";
import { ConfigError, loadConfig } from "@/lib/core/config.ts";

type T = { request(p: string, i?: RequestInit): Promise<Response> };

function send(t: T, user: TestUser, path: string, method: string, body?: unknown) {
  return t.request(path, {
    method,
    headers: { ...user.headers, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const addChannel = (t: T, user: TestUser, body: unknown) =>
  send(t, user, "/api/me/alerts/channels", "POST", body);

async function alerts(t: T, user: TestUser) {
  const res = await t.request("/api/me/alerts", { headers: user.headers });
  assert.equal(res.status, 200);
  return await res.json();
}

// Fakes listen on 127.0.0.1: the operator's switch lets a channel reach them.
const LAN = { ALERT_PRIVATE_TARGETS: "allow" };

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/me/alerts answers the default kinds and no channels; PUT switches the kinds named`, async () => {
    await using t = await testApp({ engine });
    const user = await createUser(t.deps);
    assert.equal((await t.request("/api/me/alerts")).status, 401);
    assert.deepEqual(await alerts(t, user), {
      kinds: { now_streaming: true, in_theaters: true, on_digital: true, on_physical: false },
      channels: [],
    });
    const res = await send(t, user, "/api/me/alerts", "PUT", {
      kinds: { on_physical: true, in_theaters: false },
    });
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json()).kinds, {
      now_streaming: true,
      in_theaters: false,
      on_digital: true,
      on_physical: true,
    });
    assert.equal((await alerts(t, user)).kinds.in_theaters, false);
  });

  Deno.test(`[${engine}] PUT /api/me/alerts with an unknown kind or a non-boolean answers 400 invalid_kinds and changes nothing`, async () => {
    await using t = await testApp({ engine });
    const user = await createUser(t.deps);
    for (const body of [{ kinds: { on_vhs: true } }, { kinds: { on_digital: "yes" } }, {}]) {
      await problem(await send(t, user, "/api/me/alerts", "PUT", body), 400, "invalid_kinds");
    }
    assert.equal((await alerts(t, user)).kinds.on_digital, true);
  });

  Deno.test(`[${engine}] POST /api/me/alerts/channels adds each type with its target masked; a webhook's 201 shows its secret once`, async () => {
    await using t = await testApp({ engine, env: LAN });
    const user = await createUser(t.deps);
    await using ntfy = startFakeNtfy();
    await using discord = startFakeDiscord();
    await using hooks = startFakeStandardWebhooks();
    await using apprise = startFakeApprise();
    const bodies = [
      { type: "ntfy", url: ntfy.topicUrl("films-secret-topic"), token: "tk_secret" },
      { type: "discord", url: discord.webhookUrl, name: "Movie night server" },
      { type: "webhook", url: `${hooks.url}/hooks/private-path?key=abc` },
      { type: "apprise", url: apprise.notifyUrl },
      { type: "email" },
    ];
    const created = [];
    for (const body of bodies) {
      const res = await addChannel(t, user, body);
      assert.equal(res.status, 201, body.type);
      created.push(await res.json());
    }
    const host = new URL(ntfy.url).host;
    assert.deepEqual(created[0], {
      id: created[0].id,
      type: "ntfy",
      name: `ntfy (${host})`,
      enabled: true,
      target: `http://${host}/…`,
      lastDeliveryAt: null,
      lastError: null,
    });
    assert.equal(created[1].name, "Movie night server");
    assert.match(created[2].secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(atob(created[2].secret.slice(6)).length, 32);
    assert.equal(created[4].type, "email");
    assert.equal(created[4].enabled, true);
    assert.match(created[4].target, /^u…@example\.test$/);

    const listed = (await alerts(t, user)).channels;
    assert.deepEqual(listed.map((c: { type: string }) => c.type), [
      "ntfy",
      "discord",
      "webhook",
      "apprise",
      "email",
    ]);
    // The secret is never shown again, and no listing carries a path, token or query.
    const text = JSON.stringify(listed);
    assert.equal(listed.some((c: Record<string, unknown>) => "secret" in c), false);
    for (const hidden of ["films-secret-topic", "tk_secret", "private-path", "key=abc", "notify"]) {
      assert.equal(text.includes(hidden), false, hidden);
    }
    // The email channel is the digest's switch.
    const services = await (await t.request("/api/me/services", { headers: user.headers })).json();
    assert.equal(services.emailAlerts, true);
  });

  Deno.test(`[${engine}] the store holds a channel's target and secrets sealed: only scheme and host are readable`, async () => {
    await using t = await testApp({ engine, env: LAN });
    const user = await createUser(t.deps);
    await using hooks = startFakeStandardWebhooks();
    const res = await addChannel(t, user, {
      type: "ntfy",
      url: `${hooks.url}/very-secret-topic`,
      token: "tk_token_value",
    });
    assert.equal(res.status, 201);
    const [row] = await t.store.query<Record<string, string>>(
      `select target_masked, sealed_config, target_digest from public.alert_channels
        where user_id = $1`,
      [user.id],
    );
    const dump = JSON.stringify(row);
    assert.equal(dump.includes("very-secret-topic"), false);
    assert.equal(dump.includes("tk_token_value"), false);
    assert.equal(row.target_masked, `${hooks.url}/…`);
  });

  Deno.test(`[${engine}] bad channels answer 400: malformed URL, another scheme, unknown type, a Discord URL not of the webhook form, a missing field`, async () => {
    await using t = await testApp({ engine, env: LAN });
    const user = await createUser(t.deps);
    const cases: [unknown, string][] = [
      [{ type: "ntfy", url: "not a url" }, "invalid_target"],
      [{ type: "ntfy", url: "ftp://ntfy.example/topic" }, "invalid_target"],
      [{ type: "webhook", url: "https://user:pass@hooks.example/x" }, "invalid_target"],
      [{ type: "discord", url: "https://discord.com/channels/1/2" }, "invalid_target"],
      [{ type: "discord", url: "http://127.0.0.1:9/api/webhooks/123/" }, "invalid_target"],
      [{ type: "pager", url: "https://pager.example/" }, "invalid_type"],
      [{ url: "https://pager.example/" }, "invalid_type"],
      [{ type: "apprise" }, "invalid_body"],
      [{ type: "ntfy", url: "https://ntfy.example/t", extra: 1 }, "invalid_body"],
      [{ type: "webpush", subscription: { endpoint: "https://push.example/x" } }, "invalid_body"],
      [["ntfy"], "invalid_body"],
    ];
    for (const [body, code] of cases) {
      await problem(await addChannel(t, user, body), 400, code, JSON.stringify(body));
    }
    assert.deepEqual((await alerts(t, user)).channels, []);
  });

  Deno.test(`[${engine}] a private target is refused with 400 invalid_target unless ALERT_PRIVATE_TARGETS=allow; names are checked after DNS`, async () => {
    await using t = await testApp({ engine });
    const user = await createUser(t.deps);
    const dns: Record<string, string[]> = {
      "ntfy.example": ["93.184.216.34"],
      "lan.example": ["192.168.1.20"],
      "mixed.example": ["93.184.216.34", "10.0.0.7"],
      "v6.example": ["fd12::1"],
    };
    t.services.alerts = createAlertsService(t.deps, {
      resolveHost: (host) => Promise.resolve(dns[host] ?? []),
    });
    for (
      const url of [
        "http://127.0.0.1:8080/topic",
        "http://[::1]/topic",
        "http://[::ffff:10.1.2.3]/topic",
        "https://lan.example/topic",
        "https://mixed.example/topic",
        "https://v6.example/topic",
        "https://nowhere.example/topic",
        "http://169.254.169.254/latest",
      ]
    ) {
      const body = await problem(
        await addChannel(t, user, { type: "ntfy", url }),
        400,
        "invalid_target",
        url,
      );
      assert.equal(body.detail.includes("/topic"), false, "the detail names the host only");
    }
    const ok = await addChannel(t, user, { type: "ntfy", url: "https://ntfy.example/topic" });
    assert.equal(ok.status, 201);

    await using lan = await testApp({ engine, env: LAN, store: t.store });
    const allowed = await addChannel(lan, user, { type: "ntfy", url: "http://192.168.1.20/t" });
    assert.equal(allowed.status, 201);
  });

  Deno.test(`[${engine}] ten channels are accepted and the 11th answers 400 too_many_channels; the same target again replaces its channel`, async () => {
    await using t = await testApp({ engine, env: LAN });
    const user = await createUser(t.deps);
    for (let i = 1; i <= 10; i++) {
      const res = await addChannel(t, user, { type: "ntfy", url: `http://127.0.0.1:9/topic-${i}` });
      assert.equal(res.status, 201, `channel ${i}`);
    }
    await problem(
      await addChannel(t, user, { type: "ntfy", url: "http://127.0.0.1:9/topic-11" }),
      400,
      "too_many_channels",
    );
    // The 5th again (a renamed copy): replaced in place, still 10.
    const again = await addChannel(t, user, {
      type: "ntfy",
      url: "http://127.0.0.1:9/topic-5",
      name: "Renamed",
    });
    assert.equal(again.status, 201);
    const { channels } = await alerts(t, user);
    assert.equal(channels.length, 10);
    assert.equal(channels[4].name, "Renamed");
    // Another user has their own ten.
    const other = await createUser(t.deps);
    assert.equal(
      (await addChannel(t, other, { type: "ntfy", url: "http://127.0.0.1:9/topic-1" })).status,
      201,
    );
  });

  Deno.test(`[${engine}] PATCH renames and switches a channel, DELETE removes it; another user's channel is 404`, async () => {
    await using t = await testApp({ engine, env: LAN });
    const user = await createUser(t.deps);
    const stranger = await createUser(t.deps);
    const { id } = await (await addChannel(t, user, {
      type: "apprise",
      url: "http://127.0.0.1:9/notify/movies",
    })).json();
    const path = `/api/me/alerts/channels/${id}`;
    let res = await send(t, user, path, "PATCH", { name: "Home", enabled: false });
    assert.equal(res.status, 200);
    assert.deepEqual([(await res.json()).name, false], ["Home", false]);
    await problem(await send(t, user, path, "PATCH", { target: "x" }), 400, "invalid_body");
    await problem(await send(t, user, path, "PATCH", {}), 400, "invalid_body");
    await problem(
      await send(t, stranger, path, "PATCH", { name: "Mine" }),
      404,
      "channel_not_found",
    );
    await problem(await send(t, stranger, path, "DELETE"), 404, "channel_not_found");
    await problem(
      await send(t, user, "/api/me/alerts/channels/nope", "DELETE"),
      404,
      "channel_not_found",
    );
    res = await send(t, user, path, "DELETE");
    assert.equal(res.status, 204);
    assert.deepEqual((await alerts(t, user)).channels, []);
  });

  Deno.test(`[${engine}] the email channel is e-mail alerts: switching it off or deleting it turns emailAlerts off, turning emailAlerts on lists it`, async () => {
    await using t = await testApp({ engine });
    const user = await createUser(t.deps);
    const emailAlerts = async () =>
      (await (await t.request("/api/me/services", { headers: user.headers })).json()).emailAlerts;
    const put = await send(t, user, "/api/me/services", "PUT", { emailAlerts: true });
    assert.equal(put.status, 200);
    const [email] = (await alerts(t, user)).channels;
    assert.deepEqual([email.type, email.enabled], ["email", true]);
    await send(t, user, `/api/me/alerts/channels/${email.id}`, "PATCH", { enabled: false });
    assert.equal(await emailAlerts(), false);
    assert.equal((await alerts(t, user)).channels[0].enabled, false);
    await send(t, user, `/api/me/alerts/channels/${email.id}`, "PATCH", { enabled: true });
    assert.equal(await emailAlerts(), true);
    assert.equal(
      (await send(t, user, `/api/me/alerts/channels/${email.id}`, "DELETE")).status,
      204,
    );
    assert.equal(await emailAlerts(), false);
    assert.deepEqual((await alerts(t, user)).channels, []);
  });

  Deno.test(`[${engine}] the test button delivers to each type now, or answers delivered:false with the error, and records it`, async () => {
    await using t = await testApp({ engine, env: LAN });
    const user = await createUser(t.deps);
    await using ntfy = startFakeNtfy({ token: "tk_right" });
    await using discord = startFakeDiscord();
    await using hooks = startFakeStandardWebhooks({ now: () => t.clock.now() });
    await using apprise = startFakeApprise();
    const ids: Record<string, string> = {};
    for (
      const body of [
        { type: "ntfy", url: ntfy.topicUrl("films"), token: "tk_right" },
        { type: "discord", url: discord.webhookUrl },
        { type: "webhook", url: `${hooks.url}/in` },
        { type: "apprise", url: apprise.notifyUrl },
      ]
    ) {
      const created = await (await addChannel(t, user, body)).json();
      ids[body.type] = created.id;
      if (created.secret) hooks.secret = created.secret;
    }
    t.clock.advance(60_000);
    for (const type of ["ntfy", "discord", "webhook", "apprise"]) {
      const res = await send(t, user, `/api/me/alerts/channels/${ids[type]}/test`, "POST");
      assert.equal(res.status, 200, type);
      assert.deepEqual(await res.json(), { delivered: true }, type);
    }
    assert.equal(ntfy.messages[0].title, "Test alert");
    assert.equal(ntfy.messages[0].authorization, "Bearer tk_right");
    assert.deepEqual(ntfy.messages[0].tags, ["bell"]);
    assert.equal(discord.posts[0].embeds[0].title, "Test alert");
    assert.equal(hooks.verified[0].body.kind, "test");
    assert.equal(hooks.refused.length, 0);
    assert.deepEqual(apprise.notifications[0].type, "info");
    const listed = (await alerts(t, user)).channels;
    for (const c of listed) {
      assert.equal(c.lastDeliveryAt, new Date(t.clock.now()).toISOString(), c.type);
    }

    // A wrong token, a server down: delivered false, the error kept, the failure counted.
    ntfy.token = "tk_other";
    let res = await send(t, user, `/api/me/alerts/channels/${ids.ntfy}/test`, "POST");
    const failed = await res.json();
    assert.equal(failed.delivered, false);
    assert.match(failed.error, /HTTP 401/);
    assert.equal(failed.error.includes("films"), false, "the error names the host only");
    await apprise.close();
    res = await send(t, user, `/api/me/alerts/channels/${ids.apprise}/test`, "POST");
    assert.deepEqual(await res.json(), {
      delivered: false,
      error: `could not reach ${new URL(apprise.url).host}`,
    });
    const [row] = await t.store.query<{ consecutive_failures: number; last_error: string }>(
      `select consecutive_failures, last_error from public.alert_channels where id = $1`,
      [ids.ntfy],
    );
    assert.equal(row.consecutive_failures, 1);
    assert.match(row.last_error, /HTTP 401/);
    await problem(
      await send(t, await createUser(t.deps), `/api/me/alerts/channels/${ids.ntfy}/test`, "POST"),
      404,
      "channel_not_found",
    );
  });

  Deno.test(`[${engine}] the test button of a redirecting or private target answers delivered:false without following it`, async () => {
    await using t = await testApp({ engine, env: LAN });
    const user = await createUser(t.deps);
    await using ntfy = startFakeNtfy();
    const moved = Deno.serve(
      { port: 0, hostname: "127.0.0.1", onListen: () => {} },
      () => new Response(null, { status: 307, headers: { location: ntfy.topicUrl("films") } }),
    );
    try {
      const { id } = await (await addChannel(t, user, {
        type: "ntfy",
        url: `http://127.0.0.1:${moved.addr.port}/films`,
      })).json();
      const res = await send(t, user, `/api/me/alerts/channels/${id}/test`, "POST");
      const out = await res.json();
      assert.equal(out.delivered, false);
      assert.match(out.error, /redirect \(HTTP 307\), which is not followed/);
      assert.equal(ntfy.messages.length, 0);

      // Saved while the operator allowed private targets, tested after they stopped.
      await using strict = await testApp({ engine, store: t.store, kv: t.kv });
      const res2 = await send(strict, user, `/api/me/alerts/channels/${id}/test`, "POST");
      const out2 = await res2.json();
      assert.equal(out2.delivered, false);
      assert.match(out2.error, /private address/);
    } finally {
      await moved.shutdown();
    }
  });

  Deno.test(`[${engine}] the email channel's test sends one mail when SMTP_URL is set, and says mail is not set up otherwise`, async () => {
    await using smtp = await startFakeSmtp();
    await using t = await testApp({ engine, env: { SMTP_URL: smtp.url } });
    const user = await createUser(t.deps);
    const { id } = await (await addChannel(t, user, { type: "email" })).json();
    const res = await send(t, user, `/api/me/alerts/channels/${id}/test`, "POST");
    assert.deepEqual(await res.json(), { delivered: true });
    const mail = await smtp.waitFor(1);
    assert.match(mail.raw, /Subject: Test alert/);
    assert.deepEqual(mail.to, [user.email]);
    assert.equal(smtp.mails.length, 1);

    await using bare = await testApp({ engine, store: t.store });
    const res2 = await send(bare, user, `/api/me/alerts/channels/${id}/test`, "POST");
    assert.deepEqual(await res2.json(), {
      delivered: false,
      error: "mail is not set up on this server (SMTP_URL)",
    });
  });
}

Deno.test("private addresses: loopback, RFC 1918, link-local, CGNAT, unique-local and mapped IPv4 are private; public ones are not", () => {
  for (
    const a of [
      "127.0.0.1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.0.10",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "::1",
      "::",
      "fe80::1",
      "fd00::2",
      "::ffff:192.168.1.1",
      "64:ff9b::a00:1",
      "not-an-ip",
    ]
  ) assert.equal(isPrivateAddress(a), true, a);
  for (const a of ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) {
    assert.equal(isPrivateAddress(a), false, a);
  }
});

Deno.test("a target is masked to its scheme and host", () => {
  assert.equal(
    maskTarget("https://discord.com/api/webhooks/123/s3cr3t-token?wait=true"),
    "https://discord.com/…",
  );
  assert.equal(maskTarget("http://192.168.1.2:8080/topic"), "http://192.168.1.2:8080/…");
  assert.equal(maskTarget("::"), "(invalid URL)");
});

for (const engine of ENGINES) {
  Deno.test(`[${engine}] under row-level security a user reads and writes only their own channels and none of the delivery queue`, async () => {
    await using t = await testApp({ engine, env: LAN });
    const owner = await createUser(t.deps);
    const other = await createUser(t.deps);
    const { id } = await (await addChannel(t, owner, {
      type: "apprise",
      url: "http://127.0.0.1:9/notify/movies",
    })).json();
    // The trigger queues it for the owner's channel.
    await t.store.query(
      `insert into public.user_notifications (user_id, kind, catalog_id, provider_id, region)
       values ($1, 'now_streaming', 1, 8, 'DE')`,
      [owner.id],
    );
    const [queued] = await t.store.query<{ n: number }>(
      `select count(*)::integer as n from public.alert_deliveries where channel_id = $1`,
      [id],
    );
    assert.equal(queued.n, 1);
    const seen = await t.store.asUser(other.id, async (tx) => ({
      channels: await tx.query(`select id from public.alert_channels where id = $1`, [id]),
      updated: await tx.query(
        `update public.alert_channels set name = 'x' where id = $1 returning id`,
        [
          id,
        ],
      ),
      deleted: await tx.query(`delete from public.alert_channels where id = $1 returning id`, [id]),
    }));
    assert.deepEqual(seen, { channels: [], updated: [], deleted: [] });
    const own = await t.store.asUser(
      owner.id,
      (tx) => tx.query(`select id from public.alert_channels where id = $1`, [id]),
    );
    assert.equal(own.length, 1);
    // The queue is the server's: a user's token may not even read it.
    await assert.rejects(
      t.store.asUser(owner.id, (tx) => tx.query(`select count(*) from public.alert_deliveries`)),
      /permission denied/,
    );
  });
}

Deno.test("the queue's trigger functions are security definer with an empty search_path, and anon cannot run them", async () => {
  await using t = await testApp();
  for (const name of ["public.enqueue_alert_deliveries()", "public.ensure_email_channel()"]) {
    const [fn] = await t.store.query<{ definer: boolean; config: string[] }>(
      `select prosecdef as definer, proconfig as config from pg_catalog.pg_proc
       where oid = $1::regprocedure`,
      [name],
    );
    assert.equal(fn.definer, true, name);
    assert.ok(fn.config.some((c) => c.replace(/"/g, "") === "search_path="), String(fn.config));
    const [anon] = await t.store.query<{ can: boolean }>(
      `select has_function_privilege('anon', $1, 'execute') as can`,
      [name],
    );
    assert.equal(anon.can, false, name);
  }
});

Deno.test("ALERT_PRIVATE_TARGETS: unset or deny keeps targets public, allow lifts it, anything else refuses to start naming it", () => {
  assert.equal(loadConfig({}).alertPrivateTargets, false);
  assert.equal(loadConfig({ ALERT_PRIVATE_TARGETS: "deny" }).alertPrivateTargets, false);
  assert.equal(loadConfig({ ALERT_PRIVATE_TARGETS: "Allow" }).alertPrivateTargets, true);
  assert.throws(() => loadConfig({ ALERT_PRIVATE_TARGETS: "yes" }), (e: Error) => {
    assert.ok(e instanceof ConfigError);
    assert.match(e.message, /^Invalid configuration: ALERT_PRIVATE_TARGETS /);
    return true;
  });
});
