/**
 * The iCal feed of a user with 500 My List films (docs/calendar.md), each with release dates
 * in 30 regions, against My List's page of 60 cards for the same user, in the same run: the
 * median time and the size of each answer; the target is at most 1.5x the page.
 */
import type { FakeClock } from "@/lib/core/clock.ts";
import { testApp } from "@/tests/helpers/app.ts";
import { createUser } from "@/tests/helpers/users.ts";
import { sessionCookie } from "@/tests/helpers/web.ts";

const FILMS = 500;
// Each round moves the clock a minute: 40 stay inside the session's hour.
const ROUNDS = 40;
const REGIONS = Array.from({ length: 30 }, (_, i) => `${String.fromCharCode(65 + (i % 26))}Q`);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Prints both medians and sizes, and the feed/page ratios. */
export default async function bench(): Promise<void> {
  await using t = await testApp({ record: false });
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
  await t.store.query("insert into public.user_my_list (user_id, catalog_ids) values ($1, $2)", [
    u.id,
    ids,
  ]);
  const connections = await t.request("/api/me/connections", { headers: u.headers });
  const feed = new URL((await connections.json()).feedUrl).pathname
    .replace(/mylist\.json$/, "calendar.ics");
  const cookie = { headers: { cookie: sessionCookie(u.token, u.email) } };
  const feedMs: number[] = [];
  const pageMs: number[] = [];
  let feedBytes = 0;
  let pageBytes = 0;
  let events = 0;
  for (let i = 0; i < ROUNDS; i++) {
    // A new minute each round: the feed's 60 reads a minute never answer instead.
    (t.clock as FakeClock).advance(60_000);
    let start = performance.now();
    const ics = await (await t.request(feed)).text();
    feedMs.push(performance.now() - start);
    start = performance.now();
    const html = await (await t.request("/mylist", cookie)).text();
    pageMs.push(performance.now() - start);
    feedBytes = new TextEncoder().encode(ics).length;
    pageBytes = new TextEncoder().encode(html).length;
    events = ics.split("BEGIN:VEVENT").length - 1;
  }
  const f = median(feedMs);
  const p = median(pageMs);
  console.log(
    `calendar feed (${FILMS} films, ${events} events): ${f.toFixed(1)} ms, ${feedBytes} bytes; ` +
      `My List page (60 cards): ${p.toFixed(1)} ms, ${pageBytes} bytes; feed/page time ` +
      `${(f / p).toFixed(2)}x, size ${(feedBytes / pageBytes).toFixed(2)}x`,
  );
}
