/**
 * A NUL character (U+0000) in text (docs/faults.md): PostgreSQL text cannot hold it, so every
 * JSON text field refuses it with 400 `invalid_body` on both engines, before the store sees
 * it, and an imported file's titles and reviews drop it.
 */
import assert from "node:assert/strict";
import { holdsNul } from "../lib/http/read_body.ts";
import { testApp } from "./helpers/app.ts";
import { historyWorld } from "./helpers/history_import_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";

const JSON_TYPE = { "content-type": "application/json" };

async function problem(res: Response, label: string) {
  assert.equal(res.status, 400, label);
  assert.match(res.headers.get("content-type") ?? "", /^application\/problem\+json/, label);
  const body = await res.json();
  assert.equal(body.code, "invalid_body", label);
  assert.match(body.detail, /NUL/, label);
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a note with a NUL character answers 400 invalid_body and leaves the entry as it was`, async () => {
    await using t = await testApp({ engine });
    const user = await createUser(t.deps);
    const headers = { ...user.headers, ...JSON_TYPE };
    const add = await t.request("/api/watched", {
      method: "POST",
      headers,
      body: JSON.stringify({ catalogId: 550, note: "kept" }),
    });
    assert.equal(add.status, 200, await add.text());
    await problem(
      await t.request("/api/watched/550", {
        method: "PATCH",
        headers,
        body: JSON.stringify({ note: "bad\u0000note" }),
      }),
      "PATCH note",
    );
    await problem(
      await t.request("/api/watched", {
        method: "POST",
        headers,
        body: JSON.stringify({ catalogId: 13, note: "\u0000" }),
      }),
      "POST note",
    );
    const rows = await t.store.query<{ catalog_id: number; note: string }>(
      `select catalog_id, note from public.user_watched_movies where user_id = $1`,
      [user.id],
    );
    assert.deepEqual(rows.map((r) => [Number(r.catalog_id), r.note]), [[550, "kept"]]);
  });
}

Deno.test("every JSON text field refuses NUL: signup, sign-in and a list write answer 400", async () => {
  await using t = await testApp();
  await problem(
    await t.request("/api/auth/signup", {
      method: "POST",
      headers: JSON_TYPE,
      body: JSON.stringify({ email: "a\u0000@example.com", password: "popcorn-matinee-42" }),
    }),
    "signup email",
  );
  const signIn = await t.request("/auth/v1/token?grant_type=password", {
    method: "POST",
    headers: JSON_TYPE,
    body: JSON.stringify({ email: "a@example.com\u0000", password: "x" }),
  });
  assert.equal(signIn.status, 400);
  assert.match((await signIn.json()).msg ?? "", /NUL/);
  const user = await createUser(t.deps);
  await problem(
    await t.request("/api/mylist", {
      method: "POST",
      headers: { ...user.headers, ...JSON_TYPE },
      body: JSON.stringify({ catalogId: 13, extra: ["\u0000"] }),
    }),
    "a nested text",
  );
});

Deno.test("holdsNul finds U+0000 in any string or key, nested", () => {
  assert.equal(holdsNul({ a: [1, { b: "x\u0000" }] }), true);
  assert.equal(holdsNul({ "k\u0000": 1 }), true);
  assert.equal(holdsNul({ a: ["fine", 2, null, true] }), false);
});

Deno.test("an imported title or review with a NUL character is read without it and matches", async () => {
  await using w = await historyWorld();
  const csv = "Title,Year,WatchedDate,Review\r\nFight\u0000 Club,1999,2024-01-02,gre\u0000at\r\n" +
    "Heat,1995,2024-01-03,\u0000\r\n";
  const run = await w.importFile(csv);
  assert.equal(run.status, "succeeded", JSON.stringify(run));
  assert.equal(run.counts.unmatched, 0, JSON.stringify(run));
  const { watched } = await w.lists();
  assert.deepEqual(watched.map((e) => [e.catalog_id, e.note]), [[550, "great"], [949, null]]);
});
