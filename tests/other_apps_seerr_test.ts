/**
 * The Request button and the user's Seerr (docs/trakt.md, "Other apps"), against a fake Seerr
 * built from Seerr's OpenAPI document: the URL and API key are saved (the key sealed with
 * AES-GCM, never shown again, never logged), the button posts `{"mediaType":"movie","mediaId"}`
 * with `X-Api-Key` to `{url}/api/v1/request`, and each of Seerr's answers becomes ours.
 */
import assert from "node:assert/strict";
import { type TestApp, testApp } from "./helpers/app.ts";
import { startFakeSeerr } from "./helpers/fake_seerr.ts";
import { problem } from "./helpers/problems.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

function send(user: TestUser, method: string, body: unknown): RequestInit {
  return {
    method,
    headers: { ...user.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  };
}

const save = (t: TestApp, u: TestUser, body: unknown) =>
  t.request("/api/me/seerr", send(u, "PUT", body));
const requestFilm = (t: TestApp, u: TestUser, catalogId: unknown) =>
  t.request("/api/me/seerr/requests", send(u, "POST", { catalogId }));

for (const engine of ENGINES) {
  Deno.test(`[${engine}] PUT /api/me/seerr saves the URL and seals the key: GET never shows it and the row holds only ciphertext`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    assert.deepEqual(await (await t.request("/api/me/seerr", { headers: u.headers })).json(), {
      url: null,
      savedAt: null,
    });
    const key = "MTY5OTk5OTk5OTk5OWFiY2RlZi1zZWVyci1rZXk=";
    const saved = await save(t, u, { url: "https://seerr.example/ ", apiKey: ` ${key} ` });
    assert.equal(saved.status, 200);
    assert.equal(saved.headers.get("cache-control"), "no-store");
    const body = await saved.json();
    assert.deepEqual(body, {
      url: "https://seerr.example",
      savedAt: new Date(t.clock.now()).toISOString(),
    });
    const read = await t.request("/api/me/seerr", { headers: u.headers });
    assert.equal(read.headers.get("cache-control"), "no-store");
    assert.deepEqual(await read.json(), body);
    const [row] = await t.store.query<{ url: string; key_cipher: string }>(
      "select url, key_cipher from public.user_seerr where user_id = $1",
      [u.id],
    );
    assert.equal(row.url, "https://seerr.example");
    assert.match(row.key_cipher, /^[A-Za-z0-9_-]+$/);
    assert.ok(
      !row.key_cipher.includes(key) && !atob(
        row.key_cipher.replace(/-/g, "+").replace(/_/g, "/") +
          "==".slice(0, (4 - row.key_cipher.length % 4) % 4),
      ).includes(key),
    );
    // Saving the same key again seals it anew (a fresh nonce): equal keys do not show.
    await (await save(t, u, { url: "https://seerr.example", apiKey: key })).body?.cancel();
    const [again] = await t.store.query<{ key_cipher: string }>(
      "select key_cipher from public.user_seerr where user_id = $1",
      [u.id],
    );
    assert.notEqual(again.key_cipher, row.key_cipher);
    for (const line of t.logs) assert.ok(!JSON.stringify(line).includes(key));
    const gone = await t.request("/api/me/seerr", { method: "DELETE", headers: u.headers });
    assert.equal(gone.status, 204);
    assert.deepEqual(await (await t.request("/api/me/seerr", { headers: u.headers })).json(), {
      url: null,
      savedAt: null,
    });
    await problem(await requestFilm(t, u, 550), 409, "seerr_not_configured");
  });

  Deno.test(`[${engine}] POST /api/me/seerr/requests sends the film to {url}/api/v1/request with X-Api-Key and answers Seerr's request`, async () => {
    await using seerr = startFakeSeerr({ basePath: "/seerr" });
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await (await save(t, u, { url: seerr.url, apiKey: seerr.apiKey })).body?.cancel();
    const res = await requestFilm(t, u, 550);
    assert.equal(res.status, 201);
    assert.deepEqual(await res.json(), { requestId: 1, status: "pending" });
    assert.deepEqual(seerr.calls, [{
      path: "/seerr/api/v1/request",
      apiKey: seerr.apiKey,
      contentType: "application/json",
      body: { mediaType: "movie", mediaId: 550 },
    }]);
    seerr.autoApprove = true;
    const approved = await requestFilm(t, u, 603);
    assert.deepEqual([approved.status, await approved.json()], [201, {
      requestId: 2,
      status: "approved",
    }]);
    for (const line of t.logs) assert.ok(!JSON.stringify(line).includes(seerr.apiKey));
  });
}

Deno.test("Seerr's refusals become ours: already requested 409, a wrong key 422, no permission, quota or blocklist 422 with Seerr's words, a redirect or a 404 a 502", async () => {
  await using seerr = startFakeSeerr();
  await using t = await testApp();
  const u = await createUser(t.deps);
  await (await save(t, u, { url: seerr.url, apiKey: seerr.apiKey })).body?.cancel();
  assert.equal((await requestFilm(t, u, 550)).status, 201);
  const again = await requestFilm(t, u, 550);
  const twice = await problem(again, 409, "already_requested");
  assert.match(JSON.stringify(twice), /Request for this media already exists/);

  seerr.quota = 1;
  assert.equal((await requestFilm(t, u, 551)).status, 201);
  const spent = await problem(await requestFilm(t, u, 552), 422, "seerr_refused");
  assert.match(JSON.stringify(spent), /Movie Quota exceeded/);
  seerr.quota = null;

  seerr.blocklisted.add(553);
  await problem(await requestFilm(t, u, 553), 422, "seerr_refused");
  seerr.mayRequest = false;
  const denied = await problem(await requestFilm(t, u, 554), 422, "seerr_refused");
  assert.match(JSON.stringify(denied), /permission to make movie requests/);
  seerr.mayRequest = true;

  await (await save(t, u, { url: seerr.url, apiKey: "not-the-key" })).body?.cancel();
  await problem(await requestFilm(t, u, 555), 422, "seerr_key_refused");
  for (const line of t.logs) assert.ok(!JSON.stringify(line).includes("not-the-key"));

  // A redirect is an answer, not followed: the key goes nowhere else.
  const calls = seerr.calls.length;
  await (await save(t, u, { url: `${seerr.url}/moved`, apiKey: seerr.apiKey })).body?.cancel();
  await problem(await requestFilm(t, u, 557), 502, "seerr_failed");
  assert.equal(seerr.calls.length, calls);

  // A URL that is not Seerr's root: Seerr (or whatever answers there) says 404.
  await (await save(t, u, { url: `${seerr.url}/wrong`, apiKey: seerr.apiKey })).body?.cancel();
  await problem(await requestFilm(t, u, 556), 502, "seerr_failed");
});

Deno.test("a Seerr that does not answer is 502 seerr_unreachable", async () => {
  const seerr = startFakeSeerr();
  const url = seerr.url;
  await seerr.close();
  await using t = await testApp();
  const u = await createUser(t.deps);
  await (await save(t, u, { url, apiKey: "k" })).body?.cancel();
  await problem(await requestFilm(t, u, 550), 502, "seerr_unreachable");
});

Deno.test("PUT /api/me/seerr takes an http(s) base URL of at most 500 characters and a key of 1-200 characters; anything else is 400", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const bad = [
    { url: "ftp://seerr.example", apiKey: "k" },
    { url: "https://user:pw@seerr.example", apiKey: "k" },
    { url: "https://seerr.example/?a=1", apiKey: "k" },
    { url: "not a url", apiKey: "k" },
    { url: "https://seerr.example", apiKey: "   " },
    { url: "https://seerr.example", apiKey: "k".repeat(201) },
    { url: `https://seerr.example/${"a".repeat(479)}`, apiKey: "k" },
    { url: "https://seerr.example", apiKey: "k", extra: true },
    { url: "https://seerr.example" },
  ];
  for (const body of bad) {
    await problem(await save(t, u, body), 400, "invalid_body", JSON.stringify(body));
  }
  const longest = `https://seerr.example/${"a".repeat(478)}`;
  assert.equal(longest.length, 500);
  const ok = await save(t, u, { url: longest, apiKey: "k".repeat(200) });
  assert.equal(ok.status, 200);
  assert.equal((await ok.json()).url, longest);
  await problem(await requestFilm(t, u, 0), 400, "invalid_body");
  await problem(await requestFilm(t, u, "550"), 400, "invalid_body");
});

Deno.test("a personal token cannot read or change the Seerr settings; a write token may press Request", async () => {
  await using seerr = startFakeSeerr();
  await using t = await testApp();
  const u = await createUser(t.deps);
  await (await save(t, u, { url: seerr.url, apiKey: seerr.apiKey })).body?.cancel();
  const token = async (scope: string) =>
    (await (await t.request("/api/tokens", send(u, "POST", { name: scope, scope }))).json()).token;
  const write = { authorization: `Bearer ${await token("write")}` };
  const read = { authorization: `Bearer ${await token("read")}` };
  await problem(
    await t.request("/api/me/seerr", { headers: write }),
    403,
    "personal_token_not_allowed",
  );
  await problem(
    await t.request("/api/me/seerr", { method: "DELETE", headers: write }),
    403,
    "personal_token_not_allowed",
  );
  const post = (headers: Record<string, string>) =>
    t.request("/api/me/seerr/requests", {
      method: "POST",
      headers: { ...headers, "content-type": "application/json" },
      body: JSON.stringify({ catalogId: 550 }),
    });
  await problem(await post(read), 403, "insufficient_scope");
  assert.equal((await post(write)).status, 201);
  await problem(await post({}), 401, "unauthorized");
});

Deno.test("a key sealed under another SECRETS_KEY cannot be read: the button asks to save it again", async () => {
  await using seerr = startFakeSeerr();
  const keyA = btoa(String.fromCharCode(...new Uint8Array(32).fill(1)));
  const keyB = btoa(String.fromCharCode(...new Uint8Array(32).fill(2)));
  await using t = await testApp({ env: { SECRETS_KEY: keyA } });
  const u = await createUser(t.deps);
  await (await save(t, u, { url: seerr.url, apiKey: seerr.apiKey })).body?.cancel();
  assert.equal((await requestFilm(t, u, 550)).status, 201);
  // With SECRETS_KEY set, no sealing key is generated into KV.
  assert.equal((await t.kv.get(["secrets", "seal_key"])).value, null);
  await using other = await testApp({ store: t.store, kv: t.kv, env: { SECRETS_KEY: keyB } });
  await problem(await requestFilm(other, u, 551), 409, "seerr_not_configured");
  assert.equal(seerr.calls.length, 1);
});
