import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";
import { problem } from "./helpers/problems.ts";
import { rows, send } from "./helpers/watched_entries.ts";

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /api/watched/:catalogId answers the entry, dated today (UTC) by default`, async () => {
    await using t = await testApp({ engine });
    t.clock.set("2026-11-22T23:30:00.123Z");
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
    t.clock.set("2026-11-22T23:59:59Z");
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
}
