/**
 * Trakt's limits on /trakt (docs/trakt.md, "Sign-in"), at their edges with the injected clock:
 * 1,000 GETs per 5-minute window per token (per address without one), writes at 1 a second
 * with bursts of 10 per token, each refusal a 429 with Retry-After and X-Ratelimit.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { takeGet } from "@/lib/connections/trakt/limits.ts";
import { UNKNOWN_ADDRESS } from "@/lib/identity/auth/limit_subject.ts";

const KEY = { "trakt-api-key": "client-limits", "trakt-api-version": "2" };

async function personalToken(t: TestApp, u: TestUser): Promise<string> {
  const made = await (await t.request("/api/tokens", {
    method: "POST",
    headers: { ...u.headers, "content-type": "application/json" },
    body: JSON.stringify({ name: "limits", scope: "write" }),
  })).json();
  return made.token;
}

async function status(response: Response): Promise<number> {
  await response.body?.cancel();
  return response.status;
}

async function refused(response: Response, name: string, retryAfter: string) {
  assert.equal(response.status, 429);
  assert.equal(response.headers.get("retry-after"), retryAfter);
  const limit = JSON.parse(response.headers.get("x-ratelimit") ?? "{}");
  assert.equal(limit.name, name);
  assert.equal(limit.remaining, 0);
  const body = await response.json();
  assert.equal(body.error, "rate_limit_exceeded");
  return limit;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] the 1,001st GET of a token in a 5-minute window answers 429 until the window ends`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const token = await personalToken(t, u);
    const headers = { ...KEY, authorization: `Bearer ${token}` };
    // The window is aligned on the clock: start at its first millisecond.
    t.clock.set(Math.ceil(t.clock.now() / 300_000) * 300_000);
    const [{ id }] = await t.store.query<{ id: string }>(
      `select id from public.user_api_tokens where user_id = $1`,
      [u.id],
    );
    // 999 counted directly, the 1,000th and 1,001st over HTTP.
    for (let i = 0; i < 999; i++) {
      assert.equal((await takeGet({ kv: t.kv, clock: t.clock }, `pat:${id}`)).allowed, true);
    }
    assert.equal(await status(await t.request("/trakt/users/settings", { headers })), 200);
    t.clock.advance(299_999);
    const limit = await refused(
      await t.request("/trakt/users/settings", { headers }),
      "AUTHED_API_GET_LIMIT",
      "1",
    );
    assert.equal(limit.period, 300);
    assert.equal(limit.limit, 1000);
    assert.equal(limit.until, new Date(t.clock.now() + 1).toISOString());
    // Another token of the same user has its own count.
    const other = await personalToken(t, u);
    assert.equal(
      await status(
        await t.request("/trakt/users/settings", {
          headers: { ...KEY, authorization: `Bearer ${other}` },
        }),
      ),
      200,
    );
    t.clock.advance(1);
    assert.equal(await status(await t.request("/trakt/users/settings", { headers })), 200);
  });

  Deno.test(`[${engine}] writes: a burst of 10 passes, the 11th answers 429 Retry-After 1, one more is allowed each second`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const token = await personalToken(t, u);
    const write = () =>
      t.request("/trakt/sync/watchlist", {
        method: "POST",
        headers: { ...KEY, authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ movies: [] }),
      });
    for (let i = 0; i < 10; i++) assert.equal(await status(await write()), 201, `write ${i + 1}`);
    const limit = await refused(await write(), "AUTHED_API_POST_LIMIT", "1");
    assert.equal(limit.period, 1);
    assert.equal(limit.limit, 1);
    t.clock.advance(999);
    await refused(await write(), "AUTHED_API_POST_LIMIT", "1");
    t.clock.advance(1);
    assert.equal(await status(await write()), 201);
    await refused(await write(), "AUTHED_API_POST_LIMIT", "1");
    // Ten idle seconds fill the bucket again, and no more than that.
    t.clock.advance(60_000);
    for (let i = 0; i < 10; i++) assert.equal(await status(await write()), 201);
    assert.equal(await status(await write()), 429);
  });
}

Deno.test("GETs without a token count per address, under UNAUTHED_API_GET_LIMIT", async () => {
  await using t = await testApp();
  t.clock.set(Math.ceil(t.clock.now() / 300_000) * 300_000);
  // In-process requests have no socket: the app counts them under the unknown address.
  const subject = `ip:${UNKNOWN_ADDRESS}`;
  for (let i = 0; i < 1000; i++) await takeGet({ kv: t.kv, clock: t.clock }, subject);
  const response = await t.request("/trakt/search/movie?query=alien", { headers: KEY });
  await refused(response, "UNAUTHED_API_GET_LIMIT", "300");
});

Deno.test("the 31st device code an address asks for in a minute answers 429 until the minute ends", async () => {
  await using t = await testApp();
  t.clock.set(Math.ceil(t.clock.now() / 60_000) * 60_000);
  const ask = () =>
    t.request("/trakt/oauth/device/code", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_id: "player" }),
    });
  for (let i = 0; i < 30; i++) assert.equal(await status(await ask()), 200, `code ${i + 1}`);
  t.clock.advance(59_999);
  await refused(await ask(), "DEVICE_CODE_LIMIT", "1");
  t.clock.advance(1);
  assert.equal(await status(await ask()), 200);
});
