import assert from "node:assert/strict";
import type { FakeClock } from "../lib/clock.ts";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

function send(u: TestUser, method: string, body: unknown): RequestInit {
  return {
    method,
    headers: { ...u.headers, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  };
}

async function problem(res: Response, status: number, code: string) {
  const body = await res.json();
  assert.equal(res.status, status, JSON.stringify(body));
  assert.match(res.headers.get("content-type") ?? "", /^application\/problem\+json/);
  assert.equal(body.code, code);
}

type Rows = Record<string, unknown>[];
const rows = (t: { store: { query(q: string, p: unknown[]): Promise<Rows> } }, u: TestUser) =>
  t.store.query(
    `select catalog_id, rating, watched_on::text, note, created_at
     from public.user_watched_movies where user_id = $1 order by catalog_id`,
    [u.id],
  );

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/watched/:catalogId answers the entry, dated today (UTC) by default`, async () => {
    await using t = await testApp({ engine });
    (t.clock as FakeClock).set("2026-11-22T23:30:00.123Z");
    const u = await createUser(t.deps);
    assert.equal(
      (await t.request("/api/watched", send(u, "POST", { catalogId: 603 }))).status,
      200,
    );
    const res = await t.request("/api/watched/603", { headers: u.headers });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      success: true,
      entry: {
        catalogId: 603,
        rating: null,
        watchedOn: "2026-11-22",
        note: null,
        addedAt: "2026-11-22T23:30:00.123Z",
      },
    });
  });

  Deno.test(`[${engine}] PATCH /api/watched/:catalogId sets, keeps and clears each field`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await (await t.request("/api/watched", send(u, "POST", { catalogId: 7 }))).body?.cancel();
    let res = await t.request(
      "/api/watched/7",
      send(u, "PATCH", { rating: 9, watchedOn: "1999-03-31", note: "  rewatch with Ana \n" }),
    );
    assert.equal(res.status, 200);
    const { entry } = await res.json();
    assert.deepEqual(
      { ...entry, addedAt: undefined },
      {
        catalogId: 7,
        rating: 9,
        watchedOn: "1999-03-31",
        note: "rewatch with Ana",
        addedAt: undefined,
      },
    );
    // Only what the body names changes.
    res = await t.request("/api/watched/7", send(u, "PATCH", { rating: 1 }));
    assert.deepEqual((await res.json()).entry, { ...entry, rating: 1 });
    res = await t.request(
      "/api/watched/7",
      send(u, "PATCH", { rating: null, watchedOn: null, note: null }),
    );
    assert.deepEqual((await res.json()).entry, {
      ...entry,
      rating: null,
      watchedOn: null,
      note: null,
    });
    // A blank note is no note.
    res = await t.request("/api/watched/7", send(u, "PATCH", { note: "   " }));
    assert.equal((await res.json()).entry.note, null);
  });

  Deno.test(`[${engine}] a rating, date or note at its edge is accepted or refused with its own code, and nothing is stored on a refusal`, async () => {
    await using t = await testApp({ engine });
    (t.clock as FakeClock).set("2026-11-22T23:59:59Z");
    const u = await createUser(t.deps);
    await (await t.request("/api/watched", send(u, "POST", { catalogId: 7 }))).body?.cancel();
    await (await t.request("/api/watched/7", send(u, "PATCH", { rating: 5, note: "kept" })))
      .body?.cancel();
    const before = await rows(t, u);
    const refused: [unknown, string][] = [
      [{ rating: 0 }, "invalid_rating"],
      [{ rating: 11 }, "invalid_rating"],
      [{ rating: 2.5 }, "invalid_rating"],
      [{ rating: "8" }, "invalid_rating"],
      [{ rating: true }, "invalid_rating"],
      [{ watchedOn: "2024-02-30" }, "invalid_date"],
      [{ watchedOn: "2023-02-29" }, "invalid_date"],
      [{ watchedOn: "1873-12-31" }, "invalid_date"],
      // Tomorrow (UTC) is the last day accepted: the clock says 2026-11-22.
      [{ watchedOn: "2026-11-24" }, "invalid_date"],
      [{ watchedOn: "2026-11-23T00:00:00Z" }, "invalid_date"],
      [{ watchedOn: "22/11/2026" }, "invalid_date"],
      [{ watchedOn: 20261122 }, "invalid_date"],
      [{ note: "x".repeat(2001) }, "invalid_note"],
      [{ note: 5 }, "invalid_note"],
      // A bad field refuses the whole body, the good one included.
      [{ rating: 8, note: "y".repeat(2001) }, "invalid_note"],
      [{}, "invalid_body"],
      [{ rating: 8, catalogId: 7 }, "invalid_body"],
      [{ stars: 4 }, "invalid_body"],
      [[], "invalid_body"],
      [null, "invalid_body"],
      ["{not json", "invalid_body"],
    ];
    for (const [body, code] of refused) {
      await problem(await t.request("/api/watched/7", send(u, "PATCH", body)), 400, code);
    }
    await problem(
      await t.request("/api/watched/7", {
        method: "PATCH",
        headers: u.headers,
        body: '{"rating":3}',
      }),
      400,
      "invalid_body",
    );
    assert.deepEqual(await rows(t, u), before);

    const accepted: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ rating: 1 }, { rating: 1 }],
      [{ rating: 10 }, { rating: 10 }],
      [{ watchedOn: "2024-02-29" }, { watchedOn: "2024-02-29" }],
      [{ watchedOn: "1874-01-01" }, { watchedOn: "1874-01-01" }],
      [{ watchedOn: "2026-11-23" }, { watchedOn: "2026-11-23" }],
      [{ note: "n".repeat(2000) }, { note: "n".repeat(2000) }],
      [{ note: ` ${"é".repeat(2000)}  ` }, { note: "é".repeat(2000) }],
      [{ note: "🎬".repeat(2000) }, { note: "🎬".repeat(2000) }],
    ];
    for (const [body, expected] of accepted) {
      const res = await t.request("/api/watched/7", send(u, "PATCH", body));
      assert.equal(res.status, 200, JSON.stringify(body));
      const { entry } = await res.json();
      for (const [k, v] of Object.entries(expected)) assert.equal(entry[k], v, k);
    }
  });

  Deno.test(`[${engine}] PATCH or GET of a movie not watched answers 404 not_watched and stores nothing`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await problem(
      await t.request("/api/watched/42", send(u, "PATCH", { rating: 8 })),
      404,
      "not_watched",
    );
    await problem(await t.request("/api/watched/42", { headers: u.headers }), 404, "not_watched");
    assert.deepEqual(await rows(t, u), []);
    for (const bad of ["0", "-1", "abc", "2147483648", "1.5"]) {
      await problem(
        await t.request(`/api/watched/${bad}`, { headers: u.headers }),
        400,
        "invalid_catalog_id",
      );
      await problem(
        await t.request(`/api/watched/${bad}`, send(u, "PATCH", { rating: 8 })),
        400,
        "invalid_catalog_id",
      );
    }
    await problem(await t.request("/api/watched/42"), 401, "unauthorized");
    const res = await t.request("/api/watched/42", send(u, "DELETE", {}));
    assert.equal(res.status, 405);
    assert.equal(res.headers.get("allow"), "GET, PATCH");
    await res.body?.cancel();
  });

  Deno.test(`[${engine}] another user's entry is invisible and unchangeable`, async () => {
    await using t = await testApp({ engine });
    const a = await createUser(t.deps);
    const b = await createUser(t.deps);
    await (await t.request(
      "/api/watched",
      send(b, "POST", { catalogId: 8, rating: 6, note: "b's" }),
    ))
      .body?.cancel();
    await problem(await t.request("/api/watched/8", { headers: a.headers }), 404, "not_watched");
    await problem(
      await t.request("/api/watched/8", send(a, "PATCH", { rating: 1, note: "a's" })),
      404,
      "not_watched",
    );
    const list = await (await t.request("/api/watched?include=entry", { headers: a.headers }))
      .json();
    assert.deepEqual(list.movies, []);
    const mine = await (await t.request("/api/watched/8", { headers: b.headers })).json();
    assert.deepEqual([mine.entry.rating, mine.entry.note], [6, "b's"]);
  });

  Deno.test(`[${engine}] POST /api/watched with history fields sets them in either form; a repeat without them changes nothing`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const clock = t.clock as FakeClock;
    let res = await t.request(
      "/api/watched",
      send(u, "POST", { catalogId: 5, rating: 7, watchedOn: "2020-05-01", note: "cinema" }),
    );
    assert.deepEqual(await res.json(), { success: true, watchedCount: null });
    const first = await rows(t, u);
    assert.deepEqual(
      first.map((r) => [r.catalog_id, r.rating, r.watched_on, r.note]),
      [[5, 7, "2020-05-01", "cinema"]],
    );
    clock.advance(60_000);
    await (await t.request("/api/watched", send(u, "POST", { catalogId: 5 }))).body?.cancel();
    await (await t.request("/api/watched", send(u, "POST", { movie: { catalogId: 5 } }))).body
      ?.cancel();
    assert.deepEqual(await rows(t, u), first);
    // With fields, the entry is updated (only those named); addedAt stays the first write's.
    res = await t.request("/api/watched", send(u, "POST", { movie: { catalogId: 5 }, rating: 10 }));
    assert.equal(res.status, 200);
    await res.body?.cancel();
    res = await t.request("/api/watched", send(u, "POST", { catalogId: 5, note: null }));
    await res.body?.cancel();
    assert.deepEqual(
      (await rows(t, u)).map((r) => [r.rating, r.watched_on, r.note, String(r.created_at)]),
      [[10, "2020-05-01", null, String(first[0].created_at)]],
    );
    // A new movie with watchedOn null has an unknown date.
    await (await t.request("/api/watched", send(u, "POST", { catalogId: 6, watchedOn: null })))
      .body?.cancel();
    const entry = (await (await t.request("/api/watched/6", { headers: u.headers })).json()).entry;
    assert.equal(entry.watchedOn, null);
  });

  Deno.test(`[${engine}] POST /api/watched with a bad history field answers its code and stores nothing`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const refused: [unknown, string][] = [
      [{ catalogId: 5, rating: 0 }, "invalid_rating"],
      [{ catalogId: 5, rating: 11 }, "invalid_rating"],
      [{ movie: { catalogId: 5 }, rating: 2.5 }, "invalid_rating"],
      [{ catalogId: 5, rating: "8" }, "invalid_rating"],
      [{ catalogId: 5, watchedOn: "2024-02-30" }, "invalid_date"],
      [{ catalogId: 5, watchedOn: "1800-01-01" }, "invalid_date"],
      [{ catalogId: 5, watchedOn: "2030-01-01" }, "invalid_date"],
      [{ catalogId: 5, note: "x".repeat(2001) }, "invalid_note"],
      [{ catalogId: 0, rating: 8 }, "invalid_catalog_id"],
      [{ rating: 8 }, "invalid_body"],
    ];
    for (const [body, code] of refused) {
      await problem(await t.request("/api/watched", send(u, "POST", body)), 400, code);
    }
    assert.deepEqual(await rows(t, u), []);
    // A refused write on a watched movie leaves it as it was.
    await (await t.request("/api/watched", send(u, "POST", { catalogId: 5, rating: 4 }))).body
      ?.cancel();
    const before = await rows(t, u);
    for (const [body, code] of refused.slice(0, 8)) {
      await problem(await t.request("/api/watched", send(u, "POST", body)), 400, code);
    }
    assert.deepEqual(await rows(t, u), before);
  });
}
