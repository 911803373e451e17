import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { problem } from "./helpers/problems.ts";
import { send } from "./helpers/watched_entries.ts";

type T = Awaited<ReturnType<typeof testApp>>;

async function log(t: T, u: TestUser, body: Record<string, unknown>) {
  const res = await t.request("/api/diary", send(u, "POST", body));
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).entry;
}

async function entry(t: T, u: TestUser, catalogId: number) {
  return (await (await t.request(`/api/watched/${catalogId}`, { headers: u.headers })).json())
    .entry;
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] POST /api/diary logs a viewing dated today, marks the movie watched and takes it off My List`, async () => {
    await using t = await testApp({ engine });
    t.clock.set("2026-11-22T23:30:00Z");
    const u = await createUser(t.deps);
    await (await t.request("/api/mylist", send(u, "POST", { catalogId: 1900000603 }))).body
      ?.cancel();
    const e = await log(t, u, { catalogId: 1900000603, rating: 8, note: " at the Rex " });
    assert.match(e.id, /^[0-9a-f-]{36}$/);
    assert.deepEqual({ ...e, id: undefined }, {
      id: undefined,
      catalogId: 1900000603,
      title: "",
      year: 0,
      posterPath: "",
      watchedOn: "2026-11-22",
      rating: 8,
      rewatch: false,
      note: "at the Rex",
      source: "manual",
    });
    assert.deepEqual((await entry(t, u, 1900000603)).rating, 8);
    const mylist = await (await t.request("/api/mylist", { headers: u.headers })).json();
    assert.deepEqual(mylist.movies, []);
  });

  Deno.test(`[${engine}] rewatch is worked out from earlier viewings, and the watched row follows the latest viewing`, async () => {
    await using t = await testApp({ engine });
    const clock = t.clock;
    clock.set("2026-06-01T10:00:00Z");
    const u = await createUser(t.deps);
    const second = await log(t, u, { catalogId: 7, watchedOn: "2026-03-01", rating: 6 });
    assert.equal(second.rewatch, false);
    clock.set("2026-06-01T10:00:01Z");
    // An earlier date logged later makes the later viewing the rewatch.
    const first = await log(t, u, { catalogId: 7, watchedOn: "2025-01-01", rating: 9 });
    assert.equal(first.rewatch, false);
    let page = (await (await t.request("/api/diary", { headers: u.headers })).json()).entries;
    assert.deepEqual(page.map((e: { rewatch: boolean }) => e.rewatch), [true, false]);
    assert.deepEqual(
      [(await entry(t, u, 7)).watchedOn, (await entry(t, u, 7)).rating],
      ["2026-03-01", 6],
    );
    // The same date logged later is a rewatch too; unrated, it leaves the row's rating alone.
    clock.set("2026-06-01T10:00:02Z");
    const res0 = await t.request(
      "/api/diary",
      send(u, "POST", { catalogId: 7, watchedOn: "2026-03-01", rating: null }),
    );
    assert.equal(res0.status, 200);
    assert.equal(
      (await res0.json()).entry.id,
      second.id,
      "the same movie, date and source is one viewing",
    );
    clock.set("2026-06-01T10:00:03Z");
    const later = await log(t, u, { catalogId: 7, watchedOn: "2026-05-05" });
    assert.equal(later.rewatch, true);
    assert.deepEqual(
      [(await entry(t, u, 7)).watchedOn, (await entry(t, u, 7)).rating],
      ["2026-05-05", 6],
    );
    // Editing the first viewing's date past the others moves the marks.
    let res = await t.request(
      `/api/diary/${first.id}`,
      send(u, "PATCH", { watchedOn: "2026-05-06", rating: 4 }),
    );
    assert.equal(res.status, 200);
    assert.equal((await res.json()).entry.rewatch, true);
    page = (await (await t.request("/api/diary", { headers: u.headers })).json()).entries;
    assert.deepEqual(
      page.map((e: { watchedOn: string; rewatch: boolean }) => [e.watchedOn, e.rewatch]),
      [["2026-05-06", true], ["2026-05-05", true], ["2026-03-01", false]],
    );
    assert.deepEqual([(await entry(t, u, 7)).watchedOn, (await entry(t, u, 7)).rating], [
      "2026-05-06",
      4,
    ]);
    // Deleting viewings: the summary follows; the last one gone, the watched row stays.
    res = await t.request(`/api/diary/${first.id}`, { method: "DELETE", headers: u.headers });
    assert.equal(res.status, 204);
    assert.equal((await entry(t, u, 7)).watchedOn, "2026-05-05");
    for (const id of [later.id, second.id]) {
      await (await t.request(`/api/diary/${id}`, { method: "DELETE", headers: u.headers })).body
        ?.cancel();
    }
    assert.equal((await entry(t, u, 7)).watchedOn, "2026-03-01");
    page = (await (await t.request("/api/diary", { headers: u.headers })).json()).entries;
    assert.deepEqual(page, []);
  });

  Deno.test(`[${engine}] GET /api/diary pages by cursor without gaps or repeats, and filters by year and month`, async () => {
    await using t = await testApp({ engine });
    const clock = t.clock;
    clock.set("2026-06-01T10:00:00Z");
    const u = await createUser(t.deps);
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      // Several viewings per date, so the order's ties are exercised.
      const day = String(1 + (i % 5)).padStart(2, "0");
      ids.push(
        (await log(t, u, { catalogId: 100 + i, watchedOn: `2025-0${1 + (i % 3)}-${day}` })).id,
      );
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor ? `&cursor=${cursor}` : "";
      const res = await t.request(`/api/diary?limit=5${q}`, { headers: u.headers });
      assert.equal(res.status, 200);
      const body = await res.json();
      seen.push(...body.entries.map((e: { id: string }) => e.id));
      cursor = body.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 5);
    assert.deepEqual([...seen].sort(), [...ids].sort());
    const all = await (await t.request("/api/diary?limit=200", { headers: u.headers })).json();
    assert.deepEqual(all.entries.map((e: { id: string }) => e.id), seen);
    assert.equal(all.nextCursor, null);
    const feb = await (await t.request("/api/diary?year=2025&month=2", { headers: u.headers }))
      .json();
    assert.ok(feb.entries.length > 0);
    assert.ok(feb.entries.every((e: { watchedOn: string }) => e.watchedOn.startsWith("2025-02-")));
    const none = await (await t.request("/api/diary?year=2024", { headers: u.headers })).json();
    assert.deepEqual(none, { entries: [], nextCursor: null });
  });

  Deno.test(`[${engine}] bad diary queries and bodies answer 400 with their codes, and other users' ids 404`, async () => {
    await using t = await testApp({ engine });
    t.clock.set("2026-11-22T12:00:00Z");
    const u = await createUser(t.deps);
    const other = await createUser(t.deps);
    for (
      const q of [
        "limit=0",
        "limit=201",
        "month=2",
        "month=13&year=2025",
        "cursor=zzz",
        "year=99",
        "sort=x",
      ]
    ) {
      await problem(
        await t.request(`/api/diary?${q}`, { headers: u.headers }),
        400,
        "invalid_query",
      );
    }
    assert.equal((await t.request("/api/diary?limit=200", { headers: u.headers })).status, 200);
    assert.equal((await t.request("/api/diary?limit=1", { headers: u.headers })).status, 200);
    const refused: [unknown, number, string][] = [
      [{}, 400, "invalid_body"],
      [{ catalogId: "1" }, 400, "invalid_catalog_id"],
      [{ catalogId: 0 }, 400, "invalid_catalog_id"],
      [{ catalogId: 1, watchedOn: null }, 400, "invalid_date"],
      [{ catalogId: 1, watchedOn: "2026-11-24" }, 400, "invalid_date"],
      [{ catalogId: 1, watchedOn: "1873-12-31" }, 400, "invalid_date"],
      [{ catalogId: 1, rating: 11 }, 400, "invalid_rating"],
      [{ catalogId: 1, note: "x".repeat(2001) }, 400, "invalid_note"],
      [{ catalogId: 1, mood: "happy" }, 400, "invalid_body"],
    ];
    for (const [body, status, code] of refused) {
      await problem(await t.request("/api/diary", send(u, "POST", body)), status, code);
    }
    // Tomorrow is the latest date, and 2,000 characters the longest note.
    await log(t, u, { catalogId: 1, watchedOn: "2026-11-23", note: "x".repeat(2000) });
    const mine = await log(t, u, { catalogId: 2, note: "é".repeat(2000) });
    // GET answers one entry, its note whole; another user's id, or no id, is 404.
    const one = await t.request(`/api/diary/${mine.id}`, { headers: u.headers });
    assert.equal(one.status, 200);
    assert.equal((await one.json()).entry.note, "é".repeat(2000));
    for (const [id, who] of [[mine.id, other], ["nope", u]] as const) {
      await problem(
        await t.request(`/api/diary/${id}`, { headers: who.headers }),
        404,
        "not_found",
      );
    }
    await problem(
      await t.request(`/api/diary/${mine.id}`, send(other, "PATCH", { rating: 1 })),
      404,
      "not_found",
    );
    await problem(
      await t.request(`/api/diary/${mine.id}`, { method: "DELETE", headers: other.headers }),
      404,
      "not_found",
    );
    await problem(
      await t.request(`/api/diary/nope`, { method: "DELETE", headers: u.headers }),
      404,
      "not_found",
    );
    await problem(
      await t.request(`/api/diary/${mine.id}`, send(u, "PATCH", {})),
      400,
      "invalid_body",
    );
    await problem(
      await t.request(`/api/diary/${mine.id}`, send(u, "PATCH", { watchedOn: null })),
      400,
      "invalid_date",
    );
    await problem(
      await t.request(`/api/diary/${mine.id}`, send(u, "PATCH", { catalogId: 3 })),
      400,
      "invalid_body",
    );
    const theirs = await (await t.request("/api/diary", { headers: other.headers })).json();
    assert.deepEqual(theirs.entries, []);
    await problem(await t.request("/api/diary"), 401, "unauthorized");
    // Two viewings of one movie from the same source cannot share a date.
    const again = await log(t, u, { catalogId: 2, watchedOn: "2026-01-01" });
    await problem(
      await t.request(`/api/diary/${again.id}`, send(u, "PATCH", { watchedOn: "2026-11-22" })),
      409,
      "already_logged",
    );
  });

  Deno.test(`[${engine}] a repeated manual log of the same day answers 200 with the one viewing, updated`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const first = await log(t, u, { catalogId: 9, watchedOn: "2026-01-01" });
    const res = await t.request(
      "/api/diary",
      send(u, "POST", { catalogId: 9, watchedOn: "2026-01-01", rating: 3 }),
    );
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json()).entry, { ...first, rating: 3 });
  });
}
