/**
 * The calendar feed's speed rules (docs/calendar.md, "The iCal feed"): the text written once is
 * kept per secret and answered to every poll while the calendar's fingerprint holds, so a poll
 * writes nothing; a list change, a film's new title or date reaches the ETag and the body on the
 * next read; gzip for clients that take it decodes to the same text; the chosen dates kept by
 * the trigger on movies.release_dates; GET /api/calendar in one query.
 */
import assert from "node:assert/strict";
import nodeIcal, { type CalendarComponent, type VEvent } from "node-ical";
import { createCalendarCache, gzipText } from "@/lib/connections/feeds/calendar_cache.ts";
import { createCalendarFeedService } from "@/lib/connections/feeds/calendar_feed.ts";
import { createGuessLimit } from "@/lib/connections/webhooks/guess_limit.ts";
import { parseCalendarQuery } from "@/lib/library/calendar/mod.ts";
import { type TestApp, testApp } from "./helpers/app.ts";
import { seedCalendar } from "./helpers/calendar_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

const SITE = "https://movies.example";

async function calendarPath(t: TestApp, u: TestUser): Promise<string> {
  const res = await t.request("/api/me/connections", { headers: u.headers });
  assert.equal(res.status, 200);
  return new URL((await res.json()).feedUrl).pathname.replace(/mylist\.json$/, "calendar.ics");
}

function events(text: string): VEvent[] {
  const parsed: Record<string, CalendarComponent | undefined> = nodeIcal.sync.parseICS(text);
  return Object.values(parsed).filter((c): c is VEvent => c?.type === "VEVENT");
}

const uids = (text: string) => events(text).map((e) => e.uid).sort();

async function read(
  t: TestApp,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; etag: string; text: string; res: Response }> {
  const res = await t.request(path, { headers });
  const text = res.headers.get("content-encoding") ? "" : await res.text();
  return { status: res.status, etag: res.headers.get("etag") ?? "", text, res };
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a poll of an unchanged calendar feed gets the text written first (its DTSTAMP); a My List change reaches the ETag and the body on the next read`, async () => {
    await using t = await testApp({ engine, env: { SITE_URL: SITE } });
    const u = await createUser(t.deps);
    await seedCalendar(t.store, u.id);
    const path = await calendarPath(t, u);
    const first = await read(t, path);
    assert.equal(first.status, 200);
    assert.ok(first.text.includes("DTSTAMP:20261122T120000Z\r\n"));
    // Five minutes later, no tag sent: the same text, not written again.
    t.clock.advance(5 * 60_000);
    const poll = await read(t, path);
    assert.equal(poll.status, 200);
    assert.equal(poll.etag, first.etag);
    assert.equal(poll.text, first.text);

    const removed = await t.request("/api/mylist", {
      method: "DELETE",
      headers: { ...u.headers, "content-type": "application/json" },
      body: JSON.stringify({ catalogId: 946102 }),
    });
    assert.equal(removed.status, 200);
    await removed.body?.cancel();
    // A second later (the contract allows 75): the new calendar, written now.
    t.clock.advance(1_000);
    const changed = await read(t, path, { "if-none-match": first.etag });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.etag, first.etag);
    assert.ok(changed.text.includes("DTSTAMP:20261122T120501Z\r\n"));
    assert.deepEqual(uids(changed.text), [
      "946101-digital-US@movies.example",
      "946101-theatrical-US@movies.example",
      "946105-theatrical-US@movies.example",
    ]);
    // Back on the list: the first calendar again, under its first tag.
    await t.store.asUser(u.id, (tx) => tx.query("select public.append_my_list(946102)"));
    const back = await read(t, path);
    assert.equal(back.etag, first.etag);
    assert.deepEqual(uids(back.text), uids(first.text));
  });

  Deno.test(`[${engine}] a film's new title or release date reaches the calendar feed on the next read; a write that changes nothing shown keeps the tag and the text`, async () => {
    await using t = await testApp({ engine, env: { SITE_URL: SITE } });
    const u = await createUser(t.deps);
    await seedCalendar(t.store, u.id);
    const path = await calendarPath(t, u);
    const first = await read(t, path);
    t.clock.advance(60_000);
    // The details job rewrites the row with nothing the calendar shows changed.
    await t.store.query("update public.movies set popularity = 99 where catalog_id = 946101");
    const same = await read(t, path);
    assert.equal(same.etag, first.etag);
    assert.equal(same.text, first.text);

    await t.store.query(
      "update public.movies set title = 'Arrival Night' where catalog_id = 946101",
    );
    const renamed = await read(t, path, { "if-none-match": first.etag });
    assert.equal(renamed.status, 200);
    assert.notEqual(renamed.etag, first.etag);
    const summaries = events(renamed.text).map((e) => e.summary).sort();
    assert.ok(summaries.includes("Arrival Night (2026) in theaters"), summaries.join(" | "));

    await t.store.query(
      `update public.movies set release_dates = $1::text::jsonb where catalog_id = 946101`,
      [JSON.stringify({ US: [{ type: 3, date: "2026-12-18", certification: "", note: "" }] })],
    );
    const moved = await read(t, path);
    assert.notEqual(moved.etag, renamed.etag);
    const arrival = events(moved.text).find((e) => e.uid === "946101-theatrical-US@movies.example");
    assert.equal(arrival?.start.toISOString(), "2026-12-18T00:00:00.000Z");
    assert.equal(
      events(moved.text).some((e) => e.uid === "946101-digital-US@movies.example"),
      false,
    );
  });

  Deno.test(`[${engine}] with Accept-Encoding gzip the calendar feed answers gzip that decodes to the same text; without it, or at q=0, plain text`, async () => {
    await using t = await testApp({ engine, env: { SITE_URL: SITE } });
    const u = await createUser(t.deps);
    await seedCalendar(t.store, u.id);
    const path = await calendarPath(t, u);
    // Written for a gzip client first, then read plain, and the other way round for a new list.
    const zipped = await t.request(path, { headers: { "accept-encoding": "gzip, deflate, br" } });
    assert.equal(zipped.status, 200);
    assert.equal(zipped.headers.get("content-encoding"), "gzip");
    assert.equal(zipped.headers.get("content-type"), "text/calendar; charset=utf-8");
    assert.equal(zipped.headers.get("vary"), "Accept-Encoding");
    const decoded = await new Response(
      zipped.body!.pipeThrough(new DecompressionStream("gzip")),
    ).text();
    const plain = await read(t, path);
    assert.equal(plain.res.headers.get("content-encoding"), null);
    assert.equal(plain.res.headers.get("vary"), "Accept-Encoding");
    assert.equal(decoded, plain.text);
    assert.equal(plain.etag, zipped.headers.get("etag"));
    assert.equal(events(decoded).length, 5);

    const refused = await read(t, path, { "accept-encoding": "gzip;q=0, identity" });
    assert.equal(refused.res.headers.get("content-encoding"), null);
    assert.equal(refused.text, plain.text);
    const star = await t.request(path, { headers: { "accept-encoding": "*" } });
    assert.equal(star.headers.get("content-encoding"), "gzip");
    await star.body?.cancel();
    const upper = await t.request(path, { headers: { "accept-encoding": "GZIP;q=0.5" } });
    assert.equal(upper.headers.get("content-encoding"), "gzip");
    await upper.body?.cancel();

    // 304 to the tag, whatever the encoding.
    const unchanged = await t.request(path, {
      headers: { "accept-encoding": "gzip", "if-none-match": plain.etag },
    });
    assert.equal(unchanged.status, 304);
    assert.equal(unchanged.headers.get("content-encoding"), null);
    assert.equal(await unchanged.text(), "");

    // A changed calendar read plain first: the gzip answer is the same new text.
    await t.store.query(
      "update public.movies set title = 'Border Lines' where catalog_id = 946102",
    );
    const fresh = await read(t, path);
    const freshZipped = await t.request(path, { headers: { "accept-encoding": "gzip" } });
    assert.equal(
      await new Response(freshZipped.body!.pipeThrough(new DecompressionStream("gzip"))).text(),
      fresh.text,
    );
  });

  Deno.test(`[${engine}] a feed service with nothing kept (a new process) answers 304 to the tag of an unchanged calendar, and keeps the text for the next poll`, async () => {
    await using t = await testApp({ engine, env: { SITE_URL: SITE } });
    const u = await createUser(t.deps);
    await seedCalendar(t.store, u.id);
    const path = await calendarPath(t, u);
    const secret = path.split("/")[2];
    const first = await read(t, path);
    const restarted = createCalendarFeedService(t.deps, {
      calendar: t.services.calendar,
      guesses: createGuessLimit(),
    });
    const request = {
      address: "203.0.113.9",
      params: new URLSearchParams(),
      ifNoneMatch: first.etag,
      gzip: false,
    };
    t.clock.advance(60_000);
    assert.deepEqual(await restarted.read(secret, request), { status: 304, etag: first.etag });
    // The next poll without a tag gets the text written at the 304 (a minute after the first).
    t.clock.advance(60_000);
    const next = await restarted.read(secret, { ...request, ifNoneMatch: null });
    assert.equal(next.status, 200);
    assert.ok(next.status === 200 && !next.gzip);
    assert.ok(typeof next.body === "string" && next.body.includes("DTSTAMP:20261122T120100Z"));
    assert.deepEqual(uids(next.body as string), uids(first.text));
  });

  Deno.test(`[${engine}] the chosen dates follow movies.release_dates: each region's earliest per type, theatrical from limited or wide, the earliest anywhere with its region, gone with the dates`, async () => {
    await using t = await testApp({ engine });
    const release = (type: number, date: string, certification = "", note = "") => ({
      type,
      date,
      certification,
      note,
    });
    await t.store.query(
      `insert into public.movies (catalog_id, title, release_dates) values (946201, 'Picks', $1::text::jsonb)
       on conflict (catalog_id) do update set release_dates = excluded.release_dates`,
      [JSON.stringify({
        US: [
          release(2, "2027-01-05", "R", "Limited"),
          release(3, "2027-01-05"),
          release(4, "2027-03-01"),
        ],
        FR: [release(3, "2026-12-20", "", "Avant-première"), release(5, "2027-05-01")],
        DE: [release(5, "2027-05-01", "16"), release(9, "2026-01-01"), release(6, "not a day")],
      })],
    );
    const firsts = async () =>
      (await t.store.query<{ firsts: unknown }>(
        "select firsts from public.movie_release_firsts where catalog_id = 946201",
      )).map((r) => typeof r.firsts === "string" ? JSON.parse(r.firsts) : r.firsts)[0];
    assert.deepEqual(await firsts(), {
      "*": {
        theatrical: ["2026-12-20", "", "Avant-première", "FR"],
        digital: ["2027-03-01", "", "", "US"],
        // A tie on the day goes to the first region code.
        physical: ["2027-05-01", "16", "", "DE"],
      },
      US: { theatrical: ["2027-01-05", "R", "Limited"], digital: ["2027-03-01", "", ""] },
      FR: { theatrical: ["2026-12-20", "", "Avant-première"], physical: ["2027-05-01", "", ""] },
      DE: { physical: ["2027-05-01", "16", ""] },
    });
    await t.store.query(
      `update public.movies set release_dates = '{"GB": [{"type": 1, "date": "2026-12-01", "certification": "", "note": "LFF"}]}' where catalog_id = 946201`,
    );
    assert.deepEqual(await firsts(), {
      "*": { premiere: ["2026-12-01", "", "LFF", "GB"] },
      GB: { premiere: ["2026-12-01", "", "LFF"] },
    });
    await t.store.query("update public.movies set release_dates = null where catalog_id = 946201");
    assert.equal(await firsts(), undefined);
    // A row stored without dates (a catalog import's) gets them from the update that brings them.
    await t.store.query(
      `update public.movies set release_dates = '{"US": [{"type": 4, "date": "2027-02-02", "certification": "", "note": ""}]}' where catalog_id = 946201`,
    );
    assert.deepEqual(await firsts(), {
      "*": { digital: ["2027-02-02", "", "", "US"] },
      US: { digital: ["2027-02-02", "", ""] },
    });
  });

  Deno.test(`[${engine}] GET /api/calendar reads the region and the events in one query`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    await seedCalendar(t.store, u.id);
    const query = parseCalendarQuery(new URLSearchParams("list=all"), { now: t.clock.now() });
    const before = t.store.stats.queries;
    const calendar = await t.services.calendar.read(u.id, query);
    assert.equal(t.store.stats.queries - before, 1);
    assert.equal(calendar.events.length, 7);
    const res = await t.request("/api/calendar?list=all", { headers: u.headers });
    assert.deepEqual((await res.json()).events.length, 7);
  });
}

Deno.test("the kept calendar feeds stay under their byte bound, the least recently read going first, and one unread for an hour is dropped", async () => {
  const gzip = await gzipText("x".repeat(10_000));
  const size = gzip.byteLength;
  const cache = createCalendarCache({ maxBytes: size * 2, idleMs: 3_600_000 });
  const feed = (etag: string) => ({ version: "v", etag, gzip });
  cache.set("a", feed("A"), 0);
  cache.set("b", feed("B"), 1);
  assert.equal(cache.get("a", 2)?.etag, "A"); // a is now the most recently read
  cache.set("c", feed("C"), 3); // over the bound: b goes
  assert.equal(cache.get("b", 4), null);
  assert.equal(cache.get("a", 5)?.etag, "A");
  assert.equal(cache.get("c", 6)?.etag, "C");
  // Replacing a key's feed does not count it twice.
  cache.set("c", feed("C2"), 7);
  assert.equal(cache.get("a", 8)?.etag, "A");
  assert.equal(cache.get("c", 9)?.etag, "C2");
  // An hour after its last read, a feed is gone; one read since is kept.
  assert.equal(cache.get("c", 9 + 3_599_999)?.etag, "C2");
  assert.equal(cache.get("a", 8 + 3_600_000), null);
  assert.equal(cache.get("c", 9 + 3_599_999 + 3_600_000), null);
  // A feed larger than the whole bound is not kept.
  const big = createCalendarCache({ maxBytes: size - 1 });
  big.set("a", feed("A"), 0);
  assert.equal(big.get("a", 1), null);
});
