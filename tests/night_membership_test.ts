/**
 * Movie nights' membership (docs/nights.md): the join link, at most 8 members, joining twice is
 * one membership, a wrong token and a non-member are 404, the creator alone starts and deletes,
 * a night ends after 24 hours (410), leaving, and bad input 4xx; on both stores.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";
import { ENGINES } from "./helpers/store.ts";
import { freshTokens, nightOf, send } from "./helpers/nights.ts";

for (const engine of ENGINES) {
  Deno.test(`[${engine}] POST /api/nights answers 201 with a join link of 128 random bits that lasts 24 hours`, async () => {
    await using t = await testApp({ engine, env: { SITE_URL: "https://movies.example" } });
    const alice = await createUser(t.deps);
    const made = await send(t, alice, "/api/nights", { body: { name: "Friday", onlyMine: false } });
    assert.equal(made.status, 201);
    const url = new URL(String(made.body.joinUrl));
    assert.equal(url.origin, "https://movies.example");
    assert.equal(url.pathname, `/nights/${made.body.id}`);
    const token = url.searchParams.get("token")!;
    assert.match(token, /^[A-Za-z0-9_-]{22}$/);
    assert.equal(Date.parse(String(made.body.expiresAt)) - t.clock.now(), 24 * 3600 * 1000);
    // Only the token's hash is stored.
    const [row] = await t.store.query<{ token_hash: string }>(
      "select token_hash from public.movie_nights where id = $1",
      [made.body.id],
    );
    assert.notEqual(row.token_hash, token);
    assert.match(row.token_hash, /^[0-9a-f]{64}$/);
    // An empty body is a night without a name.
    assert.equal((await send(t, alice, "/api/nights")).status, 201);
    const night = await send(t, alice, `/api/nights/${made.body.id}`, { method: "GET" });
    assert.equal(night.status, 200);
    assert.equal(night.body.name, "Friday");
    assert.deepEqual(night.body.members, [{
      displayName: alice.email.split("@")[0],
      voted: false,
      votes: 0,
      you: true,
      creator: true,
    }]);
    assert.deepEqual(night.body.shortlist, []);
    assert.equal(night.body.match, null);
  });

  Deno.test(`[${engine}] a night takes 8 members: the ninth answers 409 night_full, and joining twice is one membership`, async () => {
    await using t = await testApp({ engine });
    const users = await Promise.all(Array.from({ length: 9 }, () => createUser(t.deps)));
    const [creator, ...rest] = users;
    const { id, token } = await nightOf(t, creator, rest.slice(0, 7));
    const again = await send(t, rest[0], `/api/nights/${id}/join`, { body: { token } });
    assert.equal(again.status, 200);
    assert.equal((again.body.members as unknown[]).length, 8);
    const ninth = await send(t, rest[7], `/api/nights/${id}/join`, { body: { token } });
    assert.equal(ninth.status, 409);
    assert.equal(ninth.body.code, "night_full");
    const [{ n }] = await t.store.query<{ n: number }>(
      "select count(*)::int as n from public.movie_night_members where night_id = $1",
      [id],
    );
    assert.equal(n, 8);
    // One leaves: there is room for the ninth.
    assert.equal(
      (await send(t, rest[1], `/api/nights/${id}/members/me`, { method: "DELETE" })).status,
      204,
    );
    assert.equal(
      (await send(t, rest[7], `/api/nights/${id}/join`, { body: { token } })).status,
      200,
    );
  });

  Deno.test(`[${engine}] three joining at once for the last two places: two get in, one gets 409 night_full`, async () => {
    await using t = await testApp({ engine });
    const users = await Promise.all(Array.from({ length: 9 }, () => createUser(t.deps)));
    const { id, token } = await nightOf(t, users[0], users.slice(1, 6));
    const answers = await Promise.all(
      users.slice(6).map((u) => send(t, u, `/api/nights/${id}/join`, { body: { token } })),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 200, 409]);
    const [{ n }] = await t.store.query<{ n: number }>(
      "select count(*)::int as n from public.movie_night_members where night_id = $1",
      [id],
    );
    assert.equal(n, 8);
  });

  Deno.test(`[${engine}] a wrong token answers 404 and a non-member reads, votes, streams and leaves nothing (404)`, async () => {
    await using t = await testApp({ engine });
    const [alice, bob, eve] = await Promise.all([1, 2, 3].map(() => createUser(t.deps)));
    const { id, token } = await nightOf(t, alice, [bob]);
    const wrong = token.slice(0, -1) + (token.endsWith("A") ? "B" : "A");
    for (const bad of [wrong, "not-a-token", "x".repeat(200)]) {
      const r = await send(t, eve, `/api/nights/${id}/join`, { body: { token: bad } });
      assert.equal(r.status, 404, bad);
      assert.equal(r.body.code, "night_not_found");
    }
    // The right token of another night opens nothing here.
    const other = await nightOf(t, bob, []);
    assert.equal(
      (await send(t, eve, `/api/nights/${id}/join`, { body: { token: other.token } })).status,
      404,
    );
    for (
      const [method, path, body] of [
        ["GET", `/api/nights/${id}`],
        ["GET", `/api/nights/${id}/events`],
        ["POST", `/api/nights/${id}/votes`, { catalogId: 1, vote: "yes" }],
        ["POST", `/api/nights/${id}/start`],
        ["DELETE", `/api/nights/${id}`],
        ["DELETE", `/api/nights/${id}/members/me`],
        ["GET", `/api/nights/${crypto.randomUUID()}`],
        ["GET", `/api/nights/not-a-uuid`],
      ] as const
    ) {
      const r = await send(t, eve, path, { method, body });
      assert.equal(r.status, 404, `${method} ${path}`);
      assert.equal(r.body.code, "night_not_found");
    }
  });

  Deno.test(`[${engine}] only the creator starts or deletes a night (403 for another member), and deleting ends it for all`, async () => {
    await using t = await testApp({ engine });
    const [alice, bob] = await Promise.all([1, 2].map(() => createUser(t.deps)));
    const { id } = await nightOf(t, alice, [bob]);
    const start = await send(t, bob, `/api/nights/${id}/start`);
    assert.equal(start.status, 403);
    assert.equal(start.body.code, "not_night_creator");
    const reshuffle = await send(t, bob, `/api/nights/${id}/start?reshuffle=1`);
    assert.equal(reshuffle.status, 403);
    const del = await send(t, bob, `/api/nights/${id}`, { method: "DELETE" });
    assert.equal(del.status, 403);
    assert.equal(del.body.code, "not_night_creator");
    assert.equal((await send(t, alice, `/api/nights/${id}`, { method: "DELETE" })).status, 204);
    assert.equal((await send(t, bob, `/api/nights/${id}`, { method: "GET" })).status, 404);
    assert.equal((await send(t, alice, `/api/nights/${id}`, { method: "GET" })).status, 404);
  });

  Deno.test(`[${engine}] a night ends 24 hours after it was made: reading, joining and voting answer 410 night_expired`, async () => {
    await using t = await testApp({ engine });
    const [alice, bob, carol] = await Promise.all([1, 2, 3].map(() => createUser(t.deps)));
    const { id, token } = await nightOf(t, alice, [bob]);
    t.clock.advance(24 * 3600 * 1000 - 1);
    await freshTokens(t, [alice, bob, carol]);
    assert.equal((await send(t, bob, `/api/nights/${id}`, { method: "GET" })).status, 200);
    t.clock.advance(1);
    const read = await send(t, bob, `/api/nights/${id}`, { method: "GET" });
    assert.equal(read.status, 410);
    assert.equal(read.body.code, "night_expired");
    assert.equal((await send(t, carol, `/api/nights/${id}/join`, { body: { token } })).status, 410);
    assert.equal(
      (await send(t, bob, `/api/nights/${id}/votes`, { body: { catalogId: 1, vote: "yes" } }))
        .status,
      410,
    );
    assert.equal((await send(t, bob, `/api/nights/${id}/events`, { method: "GET" })).status, 410);
    // To someone who never was a member, it stays the one 404 (without the right token).
    assert.equal((await send(t, carol, `/api/nights/${id}`, { method: "GET" })).status, 404);
  });

  Deno.test(`[${engine}] a creator who leaves hands the night to the next member; the last one to leave ends it`, async () => {
    await using t = await testApp({ engine });
    const [alice, bob, carol] = await Promise.all([1, 2, 3].map(() => createUser(t.deps)));
    const { id } = await nightOf(t, alice, [bob, carol]);
    assert.equal(
      (await send(t, alice, `/api/nights/${id}/members/me`, { method: "DELETE" })).status,
      204,
    );
    const night = await send(t, carol, `/api/nights/${id}`, { method: "GET" });
    const members = night.body.members as { displayName: string; creator: boolean }[];
    assert.deepEqual(members.map((m) => [m.displayName, m.creator]), [
      [bob.email.split("@")[0], true],
      [carol.email.split("@")[0], false],
    ]);
    assert.equal((await send(t, bob, `/api/nights/${id}/start`)).status, 200);
    assert.equal(
      (await send(t, carol, `/api/nights/${id}/members/me`, { method: "DELETE" })).status,
      204,
    );
    assert.equal(
      (await send(t, bob, `/api/nights/${id}/members/me`, { method: "DELETE" })).status,
      204,
    );
    const [{ n }] = await t.store.query<{ n: number }>(
      "select count(*)::int as n from public.movie_nights where id = $1",
      [id],
    );
    assert.equal(n, 0);
  });

  Deno.test(`[${engine}] a user may have 10 nights open at once: the eleventh answers 409 too_many_nights until one ends`, async () => {
    await using t = await testApp({ engine });
    const alice = await createUser(t.deps);
    for (let i = 0; i < 10; i++) assert.equal((await send(t, alice, "/api/nights")).status, 201);
    const eleventh = await send(t, alice, "/api/nights");
    assert.equal(eleventh.status, 409);
    assert.equal(eleventh.body.code, "too_many_nights");
    t.clock.advance(24 * 3600 * 1000);
    await freshTokens(t, [alice]);
    assert.equal((await send(t, alice, "/api/nights")).status, 201);
  });

  Deno.test(`[${engine}] an ended night is kept a week (its members read 410), then deleted when a night is made`, async () => {
    await using t = await testApp({ engine });
    const [alice, bob] = await Promise.all([1, 2].map(() => createUser(t.deps)));
    const { id } = await nightOf(t, alice, [bob]);
    const count = async () =>
      (await t.store.query<{ n: number }>(
        "select count(*)::int as n from public.movie_nights where id = $1",
        [id],
      ))[0].n;
    // Ended a week ago to the millisecond: still kept.
    t.clock.advance(24 * 3600 * 1000 + 7 * 24 * 3600 * 1000);
    await freshTokens(t, [alice, bob]);
    assert.equal((await send(t, bob, "/api/nights")).status, 201);
    assert.equal(await count(), 1);
    assert.equal((await send(t, bob, `/api/nights/${id}`, { method: "GET" })).status, 410);
    t.clock.advance(1);
    await freshTokens(t, [bob]);
    assert.equal((await send(t, bob, "/api/nights")).status, 201);
    assert.equal(await count(), 0);
  });

  Deno.test(`[${engine}] bad input to the nights API answers 4xx problems with their codes`, async () => {
    await using t = await testApp({ engine });
    const [alice, bob] = await Promise.all([1, 2].map(() => createUser(t.deps)));
    const { id } = await nightOf(t, alice, [bob]);
    const cases: [string, string, unknown, number, string][] = [
      ["POST", "/api/nights", { name: "x".repeat(81) }, 400, "invalid_body"],
      ["POST", "/api/nights", { onlyMine: "yes" }, 400, "invalid_body"],
      ["POST", "/api/nights", { extra: 1 }, 400, "invalid_body"],
      ["POST", `/api/nights/${id}/join`, {}, 400, "invalid_body"],
      ["POST", `/api/nights/${id}/join`, { token: 5 }, 400, "invalid_body"],
      ["POST", `/api/nights/${id}/votes`, { catalogId: 1, vote: "maybe" }, 400, "invalid_body"],
      ["POST", `/api/nights/${id}/votes`, { catalogId: 0, vote: "yes" }, 400, "invalid_body"],
      ["POST", `/api/nights/${id}/votes`, { vote: "yes" }, 400, "invalid_body"],
      ["POST", `/api/nights/${id}/votes`, { catalogId: 5, vote: "yes" }, 409, "night_not_started"],
      ["POST", `/api/nights/${id}/start?reshuffle=maybe`, undefined, 400, "invalid_query"],
    ];
    for (const [method, path, body, status, code] of cases) {
      const r = await send(t, alice, path, { method, body });
      assert.equal(r.status, status, `${path} ${JSON.stringify(body)}`);
      assert.equal(r.body.code, code, `${path} ${JSON.stringify(body)}`);
    }
    const notJson = await t.request(`/api/nights/${id}/votes`, {
      method: "POST",
      headers: { ...alice.headers, "content-type": "text/plain" },
      body: "yes",
    });
    assert.equal(notJson.status, 400);
    await notJson.body?.cancel();
    const anonymous = await t.request("/api/nights", { method: "POST" });
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
  });
}
