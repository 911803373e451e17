/**
 * The alerts section on /account in Chromium (docs/alerts.md): by keyboard alone, a kind switched,
 * an ntfy channel added against a local ntfy server, its test's outcome shown, switched off and
 * removed, a webhook's secret shown once; "Allow notifications on this device" from the
 * permission to the webpush channel, whose test the push service decrypts and the real service
 * worker shows; axe finds nothing in the section with channels, in both schemes.
 *
 * Headless Chromium grants the notification permission but has no push service: its real
 * PushManager.subscribe answers "AbortError: Registration failed - permission denied", which the
 * page shows. The flow past that point replaces only PushManager.subscribe (the browser's edge)
 * with a subscription made by the fake push service, and hands the message that service
 * decrypted to the real worker through DevTools' ServiceWorker.deliverPushMessage.
 */
import assert from "node:assert/strict";
import axe from "axe-core";
import type { Page } from "playwright-core";
import { browserTest } from "./helpers/browser_test.ts";
import { hydrated } from "./helpers/server.ts";
import { type FakePushService, startFakePushService } from "./helpers/fake_push_service.ts";

/** Presses Tab until the focused element's label or text is `name`; fails after 120. */
async function tabTo(page: Page, name: string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el) return "";
      const aria = el.getAttribute("aria-label");
      if (aria) return aria;
      // A label's own words (not its select's options): its direct text nodes.
      const label = el.closest("label");
      const text = label
        ? [...label.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("")
        : el.textContent ?? "";
      return text.replace(/\s+/g, " ").trim();
    });
    if (focused === name) return;
  }
  assert.fail(`Tab never reached ${name}`);
}

/** An ntfy server on 127.0.0.1 that keeps what it is sent (ntfy's publish: POST the text). */
function startNtfy() {
  const received: { path: string; title: string; body: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (r) => {
    received.push({
      path: new URL(r.url).pathname,
      title: r.headers.get("title") ?? "",
      body: await r.text(),
    });
    return Response.json({ id: "m1", event: "message" });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, received, close: () => server.shutdown() };
}

async function violations(page: Page): Promise<string[]> {
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));
  await page.evaluate(axe.source);
  const found = await page.evaluate(async () => {
    // deno-lint-ignore no-explicit-any
    const result = await (globalThis as any).axe.run(document, { resultTypes: ["violations"] });
    return result.violations as { id: string; help: string; nodes: { target: unknown[] }[] }[];
  });
  return found.map((v) => `${v.id}: ${v.help} at ${JSON.stringify(v.nodes[0]?.target)}`);
}

const LAN = { env: () => Promise.resolve({ ALERT_PRIVATE_TARGETS: "allow" }) };

browserTest({
  name:
    "browser: the alerts section by keyboard: switch a kind, add ntfy, test it, switch it off, remove it; a webhook's secret once",
  server: LAN,
  async fn({ server, signUp, open }) {
    const ntfy = startNtfy();
    try {
      const session = await signUp(`alerts-${crypto.randomUUID().slice(0, 8)}@example.test`);
      const headers = { authorization: `Bearer ${session.access_token}` };
      const { page, errors } = await open({ session });
      await page.goto(`${server.url}/account`);
      await hydrated(page);
      const section = page.locator("#alerts");

      // A kind by Space: saved at once.
      await tabTo(page, "is out on disc");
      await page.keyboard.press("Space");
      await section.locator(".alert-kinds [role=status]", { hasText: "Saved." }).waitFor();
      const kinds = (await (await fetch(`${server.url}/api/me/alerts`, { headers })).json()).kinds;
      assert.equal(kinds.on_physical, true);

      // ntfy is the form's first type: its name and URL typed, Enter adds it.
      await tabTo(page, "Name (optional)");
      await page.keyboard.type("Home ntfy");
      await tabTo(page, "Server and topic");
      await page.keyboard.type(`${ntfy.url}/movies`);
      await page.keyboard.press("Enter");
      const row = section.locator(".alert-channel", { hasText: "Home ntfy" });
      await row.waitFor();
      assert.match(await row.textContent() ?? "", /ntfy · http:\/\/127\.0\.0\.1:\d+\/…/);
      assert.match(await row.textContent() ?? "", /nothing delivered yet/);

      // Its test, and the outcome beside it.
      await tabTo(page, "Test Home ntfy");
      await page.keyboard.press("Enter");
      await row.locator("[role=status]", { hasText: "Test delivered." }).waitFor();
      assert.match(await row.textContent() ?? "", /last delivered/);
      assert.equal(ntfy.received.length, 1);
      assert.equal(ntfy.received[0].path, "/movies");
      assert.equal(ntfy.received[0].title, "Test alert");

      // A failing test says why, in the row.
      await ntfy.close();
      await page.keyboard.press("Enter");
      await row.locator("[role=status]", { hasText: "Test not delivered:" }).waitFor();
      assert.match(await row.locator(".alert-channel-error").textContent() ?? "", /Last error: /);

      // Off by Space, then removed; focus stays in the list's place.
      await tabTo(page, "Home ntfy: on");
      await page.keyboard.press("Space");
      await row.locator("[role=status]", { hasText: "Off: no alerts go here." }).waitFor();
      let listed = (await (await fetch(`${server.url}/api/me/alerts`, { headers })).json())
        .channels;
      assert.equal(listed[0].enabled, false);
      await tabTo(page, "Remove Home ntfy");
      await page.keyboard.press("Enter");
      await section.getByText("Home ntfy is removed.").waitFor();
      assert.equal(await page.evaluate(() => document.activeElement?.id), "alert-channels-heading");
      listed = (await (await fetch(`${server.url}/api/me/alerts`, { headers })).json()).channels;
      assert.deepEqual(listed, []);

      // A webhook: chosen in the Type list by keyboard; its secret shown once, selected.
      await tabTo(page, "Type");
      await page.keyboard.press("ArrowDown");
      await page.keyboard.press("ArrowDown");
      assert.equal(await page.locator("select[name=type]").inputValue(), "webhook");
      await tabTo(page, "URL");
      await page.keyboard.type("http://127.0.0.1:9/hooks/movies");
      await page.keyboard.press("Enter");
      const secret = section.locator(".token-once input");
      await secret.waitFor();
      assert.match(await secret.inputValue(), /^whsec_[A-Za-z0-9+/]{43}=$/);
      await page.reload();
      await hydrated(page);
      assert.equal(await section.locator(".token-once").count(), 0);
      assert.equal(await section.locator(".alert-channel").count(), 1);
      assert.deepEqual(errors, []);
    } finally {
      await ntfy.close().catch(() => {});
    }
  },
});

let push: FakePushService | undefined;

browserTest({
  name:
    "browser: Allow notifications on this device: permission, the server's key, the channel, its test decrypted and shown by the worker",
  server: { ...LAN, fetch: (input, init) => push!.fetch(input, init) },
  async fn({ server, signUp, open, step }) {
    push = await startFakePushService();
    try {
      const session = await signUp(`push-${crypto.randomUUID().slice(0, 8)}@example.test`);
      const headers = { authorization: `Bearer ${session.access_token}` };
      const { publicKey } = await (await fetch(`${server.url}/api/push/key`)).json();

      await step("blocked notifications: the page says how to allow them", async () => {
        const { page, context } = await open({ session });
        await page.goto(`${server.url}/account`);
        await hydrated(page);
        await page.evaluate(() => Notification.permission).then((p) =>
          assert.notEqual(p, "granted")
        );
        await tabTo(page, "Allow notifications on this device");
        await page.keyboard.press("Enter");
        const status = page.locator(".alert-device [role=status]");
        await status.filter({ hasText: /blocked|not allowed/ }).waitFor();
        await context.close();
      });

      await step(
        "granted: headless Chromium's own subscribe fails, and the page says so",
        async () => {
          const { page, context } = await open({ session });
          await context.grantPermissions(["notifications"], { origin: server.url });
          await page.goto(`${server.url}/account`);
          await hydrated(page);
          await tabTo(page, "Allow notifications on this device");
          await page.keyboard.press("Enter");
          await page.locator(".alert-device [role=status]", {
            hasText: "This browser could not subscribe to push messages",
          }).waitFor();
          const listed = await (await fetch(`${server.url}/api/me/alerts`, { headers })).json();
          assert.deepEqual(listed.channels, []);
          await context.close();
        },
      );

      await step(
        "subscribed (PushManager.subscribe given the fake service's subscription): channel, test, notification",
        async () => {
          const sub = await push!.subscribe(publicKey);
          const { page, context, errors } = await open({ session });
          await context.grantPermissions(["notifications"], { origin: server.url });
          await context.addInitScript((json) => {
            const asked: string[] = [];
            // deno-lint-ignore no-explicit-any
            (globalThis as any).__pushKeysAsked = asked;
            PushManager.prototype.getSubscription = () => Promise.resolve(null);
            PushManager.prototype.subscribe = function (options?: PushSubscriptionOptionsInit) {
              const key = new Uint8Array(options?.applicationServerKey as Uint8Array);
              asked.push(
                btoa(String.fromCharCode(...key)).replaceAll("+", "-").replaceAll("/", "_")
                  .replace(/=+$/, ""),
              );
              return Promise.resolve({
                endpoint: json.endpoint,
                options: { applicationServerKey: key.buffer, userVisibleOnly: true },
                toJSON: () => ({ ...json, expirationTime: null }),
                unsubscribe: () => Promise.resolve(true),
              } as unknown as PushSubscription);
            };
          }, sub.json);
          await page.goto(`${server.url}/account`);
          await hydrated(page);
          await tabTo(page, "Allow notifications on this device");
          await page.keyboard.press("Enter");
          await page.locator(".alert-device [role=status]", { hasText: "Notifications are on" })
            .waitFor();
          // deno-lint-ignore no-explicit-any
          assert.deepEqual(await page.evaluate(() => (globalThis as any).__pushKeysAsked), [
            publicKey,
          ]);
          const row = page.locator(".alert-channel", { hasText: "Chrome on Linux" });
          await row.waitFor();
          assert.match(await row.textContent() ?? "", /Push on a device · https:\/\/127\.0\.0\.1/);

          await tabTo(page, "Test Chrome on Linux");
          await page.keyboard.press("Enter");
          await row.locator("[role=status]", { hasText: "Test delivered." }).waitFor();
          assert.equal(push!.deliveries.length, 1);
          assert.equal(push!.deliveries[0].refusal, "");
          const payload = JSON.parse(push!.deliveries[0].text);
          assert.equal(payload.title, "Test alert");

          // What the push service decrypted, delivered to the page's real worker as a push would be.
          const cdp = await context.newCDPSession(page);
          const registrations: { registrationId: string; scopeURL: string }[] = [];
          cdp.on("ServiceWorker.workerRegistrationUpdated", (e) => {
            registrations.push(...e.registrations);
          });
          await cdp.send("ServiceWorker.enable");
          await page.evaluate(() => navigator.serviceWorker.ready);
          for (let i = 0; i < 50 && !registrations.length; i++) {
            await new Promise((r) => setTimeout(r, 100));
          }
          await cdp.send("ServiceWorker.deliverPushMessage", {
            origin: server.url,
            registrationId: registrations[0].registrationId,
            data: push!.deliveries[0].text,
          });
          // The worker shows it in its own time: read the registration's notifications until then.
          let shown: unknown[] = [];
          for (let i = 0; i < 100 && !shown.length; i++) {
            shown = await page.evaluate(async () =>
              (await (await navigator.serviceWorker.ready).getNotifications())
                .map((n) => ({ title: n.title, body: n.body, data: n.data }))
            );
            if (!shown.length) await new Promise((r) => setTimeout(r, 100));
          }
          assert.deepEqual(shown, [{
            title: "Test alert",
            body: payload.body,
            data: { url: "/account#alerts" },
          }]);
          assert.deepEqual(errors, []);
          await context.close();
        },
      );
    } finally {
      await push.close();
    }
  },
});

browserTest({
  name:
    "browser: axe finds nothing in the alerts section with channels and an error, dark and light",
  server: LAN,
  async fn({ server, signUp, open }) {
    const session = await signUp(`alerts-axe-${crypto.randomUUID().slice(0, 8)}@example.test`);
    const headers = {
      authorization: `Bearer ${session.access_token}`,
      "content-type": "application/json",
    };
    for (
      const body of [
        { type: "ntfy", name: "Phone ntfy", url: "http://127.0.0.1:9/movies", token: "tk_1" },
        {
          type: "discord",
          url: "https://discord.com/api/webhooks/123456789012345678/abcDEF-token_x",
        },
        { type: "email" },
      ]
    ) {
      const res = await fetch(`${server.url}/api/me/alerts/channels`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
      assert.equal(res.status, 201, await res.text());
    }
    const { channels } = await (await fetch(`${server.url}/api/me/alerts`, { headers })).json();
    // A failed test leaves an error on the row (nothing listens on port 9).
    await (await fetch(`${server.url}/api/me/alerts/channels/${channels[0].id}/test`, {
      method: "POST",
      headers,
    })).body?.cancel();
    for (const colorScheme of ["dark", "light"] as const) {
      const { page, context } = await open({ session, colorScheme });
      await page.goto(`${server.url}/account#alerts`);
      await hydrated(page);
      await page.locator(".alert-channel-error").first().waitFor();
      assert.deepEqual(await violations(page), [], colorScheme);
      await context.close();
    }
  },
});
