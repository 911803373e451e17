/**
 * The real Trakt client, unmodified (the npm package `trakt.tv` 8.2.0, its `api_url` set to the
 * test server's /trakt): the device flow end to end, a signed-in call, the refresh and the revoke
 * (docs/trakt.md, "Sign-in"). Both stores.
 */
import assert from "node:assert/strict";
import Trakt from "trakt.tv";
import { type TestApp, testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";
import { sessionCookie } from "./helpers/web.ts";
import type { FakeClock } from "@/lib/core/clock.ts";

/** The app on a real port, as a Trakt client reaches it; `idle` settles once no request runs. */
function serve(t: TestApp): { origin: string; idle(): Promise<void> } & AsyncDisposable {
  let running = 0;
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen() {} },
    async (request) => {
      running++;
      try {
        // The body is read here, so the answer has left the app when the count drops.
        const response = await t.app.fetch(request);
        return new Response(await response.arrayBuffer(), response);
      } finally {
        running--;
      }
    },
  );
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    idle: () => until(() => Promise.resolve(running === 0), "the requests in flight"),
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function polled(t: TestApp, clientId: string): Promise<boolean> {
  const rows = await t.store.query(
    `select 1 from public.trakt_device_codes where client_id = $1 and last_polled_at is not null`,
    [clientId],
  );
  return rows.length > 0;
}

async function authorizations(t: TestApp, userId: string): Promise<number> {
  const [row] = await t.store.query<{ n: number }>(
    `select count(*)::int as n from public.trakt_authorizations where user_id = $1`,
    [userId],
  );
  return Number(row.n);
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] trakt.tv 8.2.0 signs in by the device flow, refreshes and revokes against /trakt`, async () => {
    await using t: TestApp<FakeClock> = await testApp({ engine });
    await using server = serve(t);
    const u = await createUser(t.deps);
    // The client's own id, as a client registered at Trakt would send.
    const CLIENT_ID = crypto.randomUUID().replaceAll("-", "").repeat(2);
    const trakt = new Trakt({
      client_id: CLIENT_ID,
      client_secret: "s".repeat(64),
      api_url: `${server.origin}/trakt`,
    });

    const poll = await trakt.get_codes();
    assert.match(poll.user_code, /^[A-Z2-9]{8}$/);
    assert.equal(poll.interval, 5);
    // The client polls every `interval` seconds of real time: one second here, while the
    // server's clock moves past its 5 s between the polls.
    const signedIn = trakt.poll_access({ ...poll, interval: 1 });
    await until(
      () => polled(t, CLIENT_ID),
      "the first poll (pending, 400, which the client ignores)",
    );
    t.clock.advance(5_000);
    const approved = await t.request("/api/trakt/activate", {
      method: "POST",
      headers: { ...u.headers, "content-type": "application/json" },
      body: JSON.stringify({ code: poll.user_code, approve: true }),
    });
    assert.equal(approved.status, 200);
    await approved.body?.cancel();
    const tokens = await signedIn;
    assert.equal(tokens.token_type, "bearer");
    assert.equal(tokens.expires_in, 7_776_000);
    assert.equal(trakt.export_token().access_token, tokens.access_token);
    assert.equal(await authorizations(t, u.id), 1);
    // The token signs the client's own calls in.
    const settings = await trakt.users.settings();
    assert.equal(settings.user.vip, false);
    assert.equal(typeof settings.user.username, "string");

    const refreshed = await trakt.refresh_token();
    assert.notEqual(refreshed.access_token, tokens.access_token);
    assert.equal((await trakt.users.settings()).user.vip, false);
    assert.equal(trakt.export_token().refresh_token, refreshed.refresh_token);
    // The old refresh token is spent: a client still holding it is refused.
    const stale = new Trakt({ client_id: CLIENT_ID, api_url: `${server.origin}/trakt` });
    await stale.import_token({ ...tokens, expires: Date.now() + 60_000 });
    await assert.rejects(() => stale.refresh_token());

    // revoke_token fires its request without waiting for it.
    trakt.revoke_token();
    await until(async () => (await authorizations(t, u.id)) === 0, "the revoke");
    // The client does not wait for the revoke's answer: let it arrive before the server goes.
    await server.idle();
    await new Promise((resolve) => setTimeout(resolve, 100));
  });
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] trakt.tv 8.2.0 signs in by the code flow with the user's own app: get_url opens the consent page, exchange_code gets the tokens`, async () => {
    await using t: TestApp<FakeClock> = await testApp({ engine });
    await using server = serve(t);
    const u = await createUser(t.deps);
    const made = await t.request("/api/trakt/apps", {
      method: "POST",
      headers: { ...u.headers, "content-type": "application/json" },
      body: JSON.stringify({ name: "My sync", redirectUris: [] }),
    });
    const app = await made.json();
    const trakt = new Trakt({
      client_id: app.clientId,
      client_secret: app.clientSecret,
      api_url: `${server.origin}/trakt`,
    });
    // The client's default redirect is out of band; its URL is the consent page here.
    const url = new URL(trakt.get_url());
    assert.equal(url.pathname, "/trakt/oauth/authorize");
    assert.equal(url.searchParams.get("redirect_uri"), "urn:ietf:wg:oauth:2.0:oob");
    const page = await t.request(url.pathname + url.search, {
      headers: { cookie: sessionCookie(u.token, u.email) },
    });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /My sync/);
    const consent = await (await t.request("/api/trakt/authorize", {
      method: "POST",
      headers: { ...u.headers, "content-type": "application/json" },
      body: JSON.stringify({
        clientId: app.clientId,
        redirectUri: url.searchParams.get("redirect_uri"),
        state: url.searchParams.get("state"),
        approve: true,
      }),
    })).json();
    assert.equal(consent.redirectTo, null);
    const tokens = await trakt.exchange_code(consent.code, url.searchParams.get("state"));
    assert.equal(tokens.expires_in, 7_776_000);
    assert.equal((await trakt.users.settings()).user.vip, false);
    // A code is spent once.
    await assert.rejects(() => trakt.exchange_code(consent.code));
    await server.idle();
  });
}
