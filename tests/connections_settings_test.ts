/**
 * The owner's side of the webhooks (docs/connections.md): GET /api/me/connections makes the
 * secret once and shows it whenever asked, PUT changes the settings, a personal access token
 * can do none of it, and the secret is stored beside its SHA-256, the receivers' lookup key.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { problem } from "./helpers/problems.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

function put(user: TestUser, body: unknown): RequestInit {
  return {
    method: "PUT",
    headers: { ...user.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  };
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/me/connections makes a 128-bit secret once and shows it on every read`, async () => {
    await using t = await testApp({ engine, env: { SITE_URL: "https://movies.example" } });
    const u = await createUser(t.deps);
    const res = await t.request("/api/me/connections", { headers: u.headers });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("cache-control"), "no-store");
    const first = await res.json();
    assert.match(first.webhookUrl, /^https:\/\/movies\.example\/hooks\/[A-Za-z0-9_-]{22}$/);
    assert.match(
      first.feedUrl,
      /^https:\/\/movies\.example\/feeds\/[A-Za-z0-9_-]{22}\/mylist\.json$/,
    );
    assert.deepEqual({ ...first, webhookUrl: "", feedUrl: "" }, {
      webhookUrl: "",
      feedUrl: "",
      plexUsername: null,
      removeFromMyList: true,
    });
    const again = await (await t.request("/api/me/connections", { headers: u.headers })).json();
    assert.equal(again.webhookUrl, first.webhookUrl);
    const secret = first.webhookUrl.split("/").pop();
    const [row] = await t.store.query<{ secret: string; secret_hash: string }>(
      "select secret, secret_hash from public.user_connections where user_id = $1",
      [u.id],
    );
    const digest = Array.from(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(secret))),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("");
    assert.deepEqual(row, { secret, secret_hash: digest });
    const other = await createUser(t.deps);
    const theirs = await (await t.request("/api/me/connections", { headers: other.headers }))
      .json();
    assert.notEqual(theirs.webhookUrl, first.webhookUrl);
  });

  Deno.test(`[${engine}] PUT /api/me/connections changes the named settings; a blank Plex name clears the filter; bad bodies are 400`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const set = await (await t.request("/api/me/connections", put(u, { plexUsername: " Anna " })))
      .json();
    assert.deepEqual([set.plexUsername, set.removeFromMyList], ["Anna", true]);
    const off = await (await t.request("/api/me/connections", put(u, { removeFromMyList: false })))
      .json();
    assert.deepEqual([off.plexUsername, off.removeFromMyList], ["Anna", false]);
    const cleared = await (await t.request("/api/me/connections", put(u, { plexUsername: "" })))
      .json();
    assert.deepEqual([cleared.plexUsername, cleared.removeFromMyList], [null, false]);
    await problem(
      await t.request("/api/me/connections", put(u, { secret: "x" })),
      400,
      "invalid_body",
    );
    await problem(
      await t.request("/api/me/connections", put(u, { removeFromMyList: "yes" })),
      400,
      "invalid_body",
    );
    await problem(
      await t.request("/api/me/connections", put(u, { plexUsername: "x".repeat(101) })),
      400,
      "invalid_body",
    );
    assert.equal(
      (await (await t.request("/api/me/connections", put(u, { plexUsername: "x".repeat(100) })))
        .json()).plexUsername,
      "x".repeat(100),
    );
  });

  Deno.test(`[${engine}] a personal access token cannot read, change or rotate the webhook, nor read its events`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const made = await (await t.request("/api/tokens", {
      method: "POST",
      headers: { ...u.headers, "content-type": "application/json" },
      body: JSON.stringify({ name: "script", scope: "write" }),
    })).json();
    const bearer = { authorization: `Bearer ${made.token}` };
    await problem(
      await t.request("/api/me/connections", { headers: bearer }),
      403,
      "personal_token_not_allowed",
    );
    await problem(
      await t.request("/api/me/connections", {
        method: "PUT",
        headers: { ...bearer, "content-type": "application/json" },
        body: JSON.stringify({ removeFromMyList: false }),
      }),
      403,
      "personal_token_not_allowed",
    );
    await problem(
      await t.request("/api/me/connections/rotate", { method: "POST", headers: bearer }),
      403,
      "personal_token_not_allowed",
    );
    await problem(
      await t.request("/api/me/connections/events", { headers: bearer }),
      403,
      "personal_token_not_allowed",
    );
    await problem(await t.request("/api/me/connections"), 401, "unauthorized");
    const events = await (await t.request("/api/me/connections/events", { headers: u.headers }))
      .json();
    assert.deepEqual(events, { events: [] });
  });
}
