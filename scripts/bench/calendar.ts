/**
 * The iCal feed of a user with 500 My List films (docs/calendar.md, "Benchmark"), each with
 * release dates in 31 regions (1,500 events), against My List's page of 60 cards for the same
 * user, in the same run: the median time and the size of each answer; the target is at most
 * 1.5x the page. Four cases of the feed:
 *
 * - poll: a calendar app's read without a tag, every minute, of an unchanged calendar (the
 *   events are read, the written text is kept);
 * - written: every read after a list change, so the text is written and gzipped each time;
 * - 304: a read with the tag of the unchanged calendar;
 * - the bytes on the wire with `Accept-Encoding: gzip` for both (calendar apps and browsers send
 *   it); the page is not compressed by the app, so its figure is also given gzipped.
 *
 * And GET /api/calendar for the same user (the same events as JSON).
 */
import type { FakeClock } from "@/lib/core/clock.ts";
import { gzipText } from "@/lib/connections/feeds/calendar_cache.ts";
import { testApp } from "@/tests/helpers/app.ts";
import { createUser } from "@/tests/helpers/users.ts";
import { sessionCookie } from "@/tests/helpers/web.ts";

const FILMS = 500;
// Each round moves the clock 10 s: six cases of 40 rounds stay inside the session's hour, and
// the feed's 60 reads a minute never answer instead.
const ROUNDS = 40;
const REGIONS = Array.from({ length: 30 }, (_, i) => `${String.fromCharCode(65 + (i % 26))}Q`);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Milliseconds and bytes of one answer. */
async function timed(answer: () => Promise<Response>): Promise<{ ms: number; bytes: number }> {
  const start = performance.now();
  const res = await answer();
  const body = new Uint8Array(await res.arrayBuffer());
  const ms = performance.now() - start;
  if (res.status !== 200 && res.status !== 304) throw new Error(`status ${res.status}`);
  return { ms, bytes: body.byteLength };
}

/** Prints each case's medians and sizes, and the feed/page ratios. */
export default async function bench(): Promise<void> {
  await using t = await testApp({ record: false });
  const clock = t.clock as FakeClock;
  const u = await createUser(t.deps);
  const ids = Array.from({ length: FILMS }, (_, i) => 970_001 + i);
  const today = Date.parse("2026-11-22T00:00:00Z");
  for (const [i, id] of ids.entries()) {
    const day = (n: number) => new Date(today + ((i + n) % 200 - 30) * 86_400_000).toISOString();
    const releases = Object.fromEntries(
      [...REGIONS, "US"].map((r) => [r, [
        { type: 3, date: day(0).slice(0, 10), certification: "PG-13", note: "" },
        { type: 4, date: day(40).slice(0, 10), certification: "", note: "" },
        { type: 5, date: day(90).slice(0, 10), certification: "", note: "Blu-ray" },
      ]]),
    );
    await t.store.query(
      `insert into public.movies (catalog_id, title, original_title, year, runtime, genres,
         poster_path, release_dates, has_details)
       values ($1, $2, $2, 2026, 110, '{Drama}', $3, $4::text::jsonb, true)`,
      [id, `Benchmark Film Number ${i + 1}`, `/p${id}.jpg`, JSON.stringify(releases)],
    );
  }
  // A 501st film, on and off the list between the "written" case's reads.
  await t.store.query(
    `insert into public.movies (catalog_id, title, original_title, year, release_dates)
     values (970999, 'Toggled', 'Toggled', 2026, $1::text::jsonb)`,
    [JSON.stringify({ US: [{ type: 3, date: "2026-12-01", certification: "", note: "" }] })],
  );
  await t.store.query("insert into public.user_my_list (user_id, catalog_ids) values ($1, $2)", [
    u.id,
    ids,
  ]);
  const connections = await t.request("/api/me/connections", { headers: u.headers });
  const feed = new URL((await connections.json()).feedUrl).pathname
    .replace(/mylist\.json$/, "calendar.ics");
  const cookie = sessionCookie(u.token, u.email);
  const gzip = { "accept-encoding": "gzip, deflate, br" };
  const page = (headers: Record<string, string> = {}) =>
    t.request("/mylist", { headers: { cookie, ...headers } });
  const first = await t.request(feed);
  const etag = first.headers.get("etag") ?? "";
  const text = await first.text();
  const events = text.split("BEGIN:VEVENT").length - 1;
  const pageText = await (await page()).text();

  const cases = new Map<
    string,
    { feed: number[]; page: number[]; feedBytes: number; pageBytes: number }
  >();
  const run = async (
    name: string,
    feedAnswer: (round: number) => Promise<Response>,
    pageAnswer: () => Promise<Response>,
    between: (round: number) => Promise<void> = async () => {},
  ) => {
    const c = { feed: [] as number[], page: [] as number[], feedBytes: 0, pageBytes: 0 };
    for (let i = 0; i < ROUNDS; i++) {
      clock.advance(10_000);
      await between(i);
      const f = await timed(() => feedAnswer(i));
      const p = await timed(pageAnswer);
      c.feed.push(f.ms);
      c.page.push(p.ms);
      c.feedBytes = f.bytes;
      c.pageBytes = p.bytes;
    }
    cases.set(name, c);
  };
  await run("poll", () => t.request(feed), () => page());
  await run("written", () => t.request(feed), () => page(), async (i) => {
    await t.store.query("update public.user_my_list set catalog_ids = $2 where user_id = $1", [
      u.id,
      i % 2 === 0 ? [...ids, 970999] : ids,
    ]);
  });
  await t.store.query("update public.user_my_list set catalog_ids = $2 where user_id = $1", [
    u.id,
    ids,
  ]);
  await run("304", () => t.request(feed, { headers: { "if-none-match": etag } }), () => page());
  await run("poll, gzip", () => t.request(feed, { headers: gzip }), () => page(gzip));
  await run(
    "written, gzip",
    () => t.request(feed, { headers: gzip }),
    () => page(gzip),
    async (i) => {
      await t.store.query("update public.user_my_list set catalog_ids = $2 where user_id = $1", [
        u.id,
        i % 2 === 0 ? [...ids, 970999] : ids,
      ]);
    },
  );
  await t.store.query("update public.user_my_list set catalog_ids = $2 where user_id = $1", [
    u.id,
    ids,
  ]);
  await run(
    "GET /api/calendar",
    () => t.request("/api/calendar", { headers: u.headers }),
    () => page(),
  );

  console.log(`${FILMS} films, ${events} events; the page has 60 cards`);
  for (const [name, c] of cases) {
    const f = median(c.feed);
    const p = median(c.page);
    console.log(
      `${name.padEnd(18)} feed ${f.toFixed(1).padStart(5)} ms ${
        String(c.feedBytes).padStart(7)
      } B` +
        ` | page ${p.toFixed(1).padStart(5)} ms ${String(c.pageBytes).padStart(7)} B` +
        ` | time ${(f / p).toFixed(2)}x, size ${(c.feedBytes / c.pageBytes).toFixed(2)}x`,
    );
  }
  const feedGzip = cases.get("poll, gzip")!.feedBytes;
  const pageGzip = (await gzipText(pageText)).byteLength;
  console.log(
    `if the app gzipped its pages too: page ${pageGzip} B, feed ${feedGzip} B, size ` +
      `${(feedGzip / pageGzip).toFixed(2)}x`,
  );
}
