/**
 * Votes of a movie night (docs/nights.md, "Votes"): a member votes yes or no on the shortlist's
 * films and may change a vote; the match is the first film every member said yes to, and
 * afterwards a vote changes nothing; `closest` stays empty until everyone has voted on every film,
 * then lists the films with the most yeses. On both stores.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { ENGINES } from "./helpers/store.ts";
import { nightOf, seedWorld, send } from "./helpers/nights.ts";

type App = Awaited<ReturnType<typeof testApp>>;
interface Night {
  shortlist: { catalogId: number }[];
  match: number | null;
  closest: { catalogId: number; yes: number }[];
  members: { voted: boolean; votes: number }[];
  myVotes: { catalogId: number; vote: string }[];
}

async function world(t: App, size = 3) {
  await seedWorld(t.store);
  const users = await Promise.all(Array.from({ length: size }, () => createUser(t.deps)));
  const { id } = await nightOf(t, users[0], users.slice(1));
  const started = await send(t, users[0], `/api/nights/${id}/start`);
  assert.equal(started.status, 200);
  const films = (started.body as unknown as Night).shortlist.map((f) => f.catalogId);
  assert.equal(films.length, 12);
  return { users, id, films };
}

async function vote(t: App, user: TestUser, id: string, catalogId: number, yes: boolean) {
  const r = await send(t, user, `/api/nights/${id}/votes`, {
    body: { catalogId, vote: yes ? "yes" : "no" },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body as unknown as Night;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] the match is the first film every member said yes to, a changed vote counts, and votes after it change nothing`, async () => {
    await using t = await testApp({ engine });
    const { users: [a, b, c], id, films } = await world(t);
    await vote(t, a, id, films[0], true);
    await vote(t, b, id, films[0], true);
    const no = await vote(t, c, id, films[0], false);
    assert.equal(no.match, null);
    await vote(t, a, id, films[3], true);
    await vote(t, b, id, films[3], true);
    // Carol changes her mind on the first film: it matches before the fourth is decided.
    const changed = await vote(t, c, id, films[0], true);
    assert.equal(changed.match, films[0]);
    const after = await vote(t, c, id, films[3], true);
    assert.equal(after.match, films[0]);
    assert.deepEqual(after.myVotes, [{ catalogId: films[0], vote: "yes" }]);
    const read = await send(t, b, `/api/nights/${id}`, { method: "GET" });
    assert.equal(read.body.match, films[0]);
    assert.deepEqual(read.body.closest, []);
    assert.deepEqual(
      (read.body.members as Night["members"]).map((m) => m.votes),
      [2, 2, 1],
    );
  });

  Deno.test(`[${engine}] closest stays empty until everyone has voted on every film, then lists the films with the most yeses`, async () => {
    await using t = await testApp({ engine });
    const { users, id, films } = await world(t);
    // Alice says yes to films 1-2, Bob to 2-3, Carol to 3-4: two yeses for films 2 and 3 only.
    const yes = [[0, 1], [1, 2], [2, 3]];
    let last: Night | undefined;
    for (const [u, user] of users.entries()) {
      for (const [i, f] of films.entries()) {
        last = await vote(t, user, id, f, yes[u].includes(i));
        const done = u === users.length - 1 && i === films.length - 1;
        if (!done) assert.deepEqual(last.closest, [], `after ${u}:${i}`);
      }
    }
    assert.equal(last!.match, null);
    assert.deepEqual(last!.closest, [{ catalogId: films[1], yes: 2 }, {
      catalogId: films[2],
      yes: 2,
    }]);
    assert.ok(last!.members.every((m) => m.voted));
    // A changed vote moves it: Carol's yes on film 2 matches it, and closest empties.
    const matched = await vote(t, users[2], id, films[1], true);
    assert.equal(matched.match, films[1]);
    assert.deepEqual(matched.closest, []);
  });

  Deno.test(`[${engine}] the last two yeses sent at once make the match, once`, async () => {
    await using t = await testApp({ engine });
    const { users: [a, b, c], id, films } = await world(t);
    await vote(t, a, id, films[2], true);
    const both = await Promise.all([b, c].map((u) => vote(t, u, id, films[2], true)));
    assert.ok(both.some((n) => n.match === films[2]));
    const read = await send(t, a, `/api/nights/${id}`, { method: "GET" });
    assert.equal(read.body.match, films[2]);
  });

  Deno.test(`[${engine}] a vote on a film not on the shortlist answers 400 not_on_shortlist`, async () => {
    await using t = await testApp({ engine });
    const { users: [a], id, films } = await world(t, 1);
    const off = 999_999;
    assert.ok(!films.includes(off));
    const r = await send(t, a, `/api/nights/${id}/votes`, {
      body: { catalogId: off, vote: "yes" },
    });
    assert.equal(r.status, 400);
    assert.equal(r.body.code, "not_on_shortlist");
  });

  Deno.test(`[${engine}] when the one who held out leaves, the first film all the others said yes to is the match`, async () => {
    await using t = await testApp({ engine });
    const { users: [a, b, c], id, films } = await world(t);
    await vote(t, a, id, films[5], true);
    await vote(t, b, id, films[5], true);
    await vote(t, c, id, films[5], false);
    assert.equal(
      (await send(t, c, `/api/nights/${id}/members/me`, { method: "DELETE" })).status,
      204,
    );
    const read = await send(t, a, `/api/nights/${id}`, { method: "GET" });
    assert.equal(read.body.match, films[5]);
  });
}
