/**
 * The release calendar as an iCal feed (docs/calendar.md, "The iCal feed"):
 * `GET /feeds/:secret/calendar.ics` by the My List feed's secret answers RFC 5545 that a real
 * parser (node-ical) reads, with UIDs stable across fetches, an ETag and 304, the types and
 * list of the API, 60 reads a minute per secret, and the secret kept out of the log.
 */
import assert from "node:assert/strict";
import nodeIcal, { type CalendarComponent, type VEvent } from "node-ical";
import { type TestApp, testApp } from "./helpers/app.ts";
import { seedCalendar } from "./helpers/calendar_world.ts";
import { problem } from "./helpers/problems.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

const SITE = "https://movies.example";

/** The user's calendar feed path, from the My List feed URL the account shows. */
async function calendarPath(t: TestApp, u: TestUser): Promise<string> {
  const res = await t.request("/api/me/connections", { headers: u.headers });
  assert.equal(res.status, 200);
  return new URL((await res.json()).feedUrl).pathname.replace(/mylist\.json$/, "calendar.ics");
}

type Parsed = Record<string, CalendarComponent | undefined>;

function events(text: string): VEvent[] {
  const parsed: Parsed = nodeIcal.sync.parseICS(text);
  return Object.values(parsed).filter((c): c is VEvent => c?.type === "VEVENT");
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] GET /feeds/:secret/calendar.ics answers RFC 5545 a real parser reads: all-day events, stable UIDs, folded CRLF lines`, async () => {
    await using t = await testApp({ engine, env: { SITE_URL: SITE } });
    const u = await createUser(t.deps);
    await seedCalendar(t.store, u.id);
    // A long title with accents, so lines fold (at octets, not characters).
    await t.store.query("update public.movies set title = $1 where catalog_id = 946105", [
      "Early Show: The Extraordinarily Long Director's Cut of Émile Zéro",
    ]);
    const path = await calendarPath(t, u);
    const res = await t.request(path);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "text/calendar; charset=utf-8");
    assert.match(res.headers.get("etag") ?? "", /^W\/"[0-9a-f]{32}"$/);
    const text = await res.text();
    // CRLF only, every line at most 75 octets, some folded.
    assert.ok(text.endsWith("END:VCALENDAR\r\n"));
    assert.ok(!/[^\r]\n/.test(text), "a bare LF");
    const lines = text.slice(0, -2).split("\r\n");
    for (const line of lines) {
      assert.ok(new TextEncoder().encode(line).length <= 75, `too long: ${line}`);
    }
    assert.ok(lines.some((l) => l.startsWith(" ")), "no folded line");
    assert.equal(lines[0], "BEGIN:VCALENDAR");
    assert.ok(lines.includes("VERSION:2.0"));
    assert.ok(lines.some((l) => l.startsWith("PRODID:")));
    assert.ok(lines.includes("X-WR-CALNAME:Releases: My List"));
    assert.ok(lines.includes("DTSTART;VALUE=DATE:20261204"));
    assert.ok(lines.includes("DTSTAMP:20261122T120000Z"));

    const parsed = events(text);
    const byUid = Object.fromEntries(parsed.map((e) => [e.uid, e]));
    assert.deepEqual(Object.keys(byUid).sort(), [
      "946101-digital-US@movies.example",
      "946101-theatrical-US@movies.example",
      "946102-digital-DE@movies.example",
      "946102-physical-FR@movies.example",
      "946105-theatrical-US@movies.example",
    ]);
    const arrival = byUid["946101-theatrical-US@movies.example"];
    assert.equal(arrival.datetype, "date");
    assert.equal(arrival.start.toISOString(), "2026-12-04T00:00:00.000Z");
    assert.equal(arrival.summary, "Arrival Day (2026) in theaters");
    assert.equal(
      arrival.description,
      `Theatrical release in United States. Rated PG-13.\n${SITE}/movies/946101`,
    );
    const url = arrival.url as unknown as string | { val: string };
    assert.equal(typeof url === "string" ? url : url.val, `${SITE}/movies/946101`);
    assert.equal(byUid["946102-physical-FR@movies.example"].summary, "Border Line (2027) on disc");
    assert.equal(
      byUid["946102-physical-FR@movies.example"].description,
      `Disc release in France. Blu-ray.\n${SITE}/movies/946102`,
    );
    assert.equal(
      byUid["946105-theatrical-US@movies.example"].summary,
      "Early Show: The Extraordinarily Long Director's Cut of Émile Zéro (2026) in theaters",
    );
    assert.equal(
      byUid["946101-digital-US@movies.example"].summary,
      "Arrival Day (2026) on digital",
    );

    // A later fetch names the same events by the same UIDs.
    t.clock.advance(3_600_000);
    const again = events(await (await t.request(path)).text());
    assert.deepEqual(again.map((e) => e.uid).sort(), Object.keys(byUid).sort());
  });

  Deno.test(`[${engine}] the calendar feed answers 304 to its ETag until the list changes, and takes the API's types and list`, async () => {
    await using t = await testApp({ engine, env: { SITE_URL: SITE } });
    const u = await createUser(t.deps);
    await seedCalendar(t.store, u.id);
    const path = await calendarPath(t, u);
    const first = await t.request(path);
    const etag = first.headers.get("etag") ?? "";
    await first.body?.cancel();
    // Polled a minute later (another DTSTAMP), the calendar has not changed.
    t.clock.advance(60_000);
    const same = await t.request(path, { headers: { "if-none-match": etag } });
    assert.equal(same.status, 304);
    assert.equal(same.headers.get("etag"), etag);
    assert.equal(await same.text(), "");
    const listed = await t.request(path, { headers: { "if-none-match": `"other", ${etag}` } });
    assert.equal(listed.status, 304);
    await listed.body?.cancel();
    // A film leaves My List: the next poll gets the new calendar and a new tag.
    const removed = await t.request("/api/mylist", {
      method: "DELETE",
      headers: { ...u.headers, "content-type": "application/json" },
      body: JSON.stringify({ catalogId: 946102 }),
    });
    assert.equal(removed.status, 200);
    await removed.body?.cancel();
    const changed = await t.request(path, { headers: { "if-none-match": etag } });
    assert.equal(changed.status, 200);
    assert.notEqual(changed.headers.get("etag"), etag);
    assert.equal(events(await changed.text()).length, 3);

    const filtered = await t.request(`${path}?types=theatrical,tv&list=all`);
    const text = await filtered.text();
    assert.ok(text.includes("X-WR-CALNAME:Releases: all my films\r\n"));
    assert.deepEqual(events(text).map((e) => e.uid).sort(), [
      "946101-theatrical-US@movies.example",
      "946103-theatrical-US@movies.example",
      "946104-tv-US@movies.example",
      "946105-theatrical-US@movies.example",
    ]);
    // What calendar apps add themselves is ignored; a bad type or list is not.
    assert.equal((await t.request(`${path}?nocache=1`)).status, 200);
    await problem(await t.request(`${path}?types=cinema`), 400, "invalid_query");
    await problem(await t.request(`${path}?list=friends`), 400, "invalid_query");
  });

  Deno.test(`[${engine}] a rotated feed secret ends the calendar feed too; an unknown one is 404`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    const path = await calendarPath(t, u);
    const empty = await t.request(path);
    assert.equal(empty.status, 200);
    assert.equal(events(await empty.text()).length, 0);
    const rotated = await t.request("/api/me/connections/feed/rotate", {
      method: "POST",
      headers: u.headers,
    });
    await rotated.body?.cancel();
    await problem(await t.request(path), 404, "not_found");
    assert.equal((await t.request(await calendarPath(t, u))).status, 200);
  });
}

Deno.test("one calendar feed answers 60 reads a minute (304s count), the 61st is 429 with Retry-After", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const path = await calendarPath(t, u);
  const first = await t.request(path);
  const etag = first.headers.get("etag") ?? "";
  await first.body?.cancel();
  for (let i = 1; i < 60; i++) {
    const res = await t.request(path, { headers: { "if-none-match": etag } });
    assert.equal(res.status, 304, `read ${i + 1}`);
    await res.body?.cancel();
  }
  const over = await t.request(path);
  await problem(over, 429, "rate_limited");
  assert.ok(Number(over.headers.get("retry-after")) >= 1);
  // The My List feed of the same secret keeps its own count.
  const mylist = await t.request(path.replace(/calendar\.ics$/, "mylist.json"));
  assert.equal(mylist.status, 200);
  await mylist.body?.cancel();
  t.clock.advance(60_000);
  const later = await t.request(path);
  assert.equal(later.status, 200);
  await later.body?.cancel();
});

Deno.test("the calendar feed's secret is logged as :secret, known or not", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const path = await calendarPath(t, u);
  const secret = path.split("/")[2];
  const from = t.logs.length;
  await (await t.request(path)).body?.cancel();
  await (await t.request("/feeds/AAAAAAAAAAAAAAAAAAAAAA/calendar.ics")).body?.cancel();
  const lines = t.logs.slice(from) as Record<string, unknown>[];
  for (const line of lines) assert.ok(!JSON.stringify(line).includes(secret));
  assert.deepEqual(lines.map((l) => `${l.status} ${l.path}`), [
    "200 /feeds/:secret/calendar.ics",
    "404 /feeds/:secret/calendar.ics",
  ]);
});
