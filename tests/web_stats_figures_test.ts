/**
 * One definition per figure (issue 44; docs/diary.md, "The figures, one definition each"): the
 * watched page's strip, /stats, /stats/YYYY, the public profile and GET /api/stats show the
 * same films, rated viewings and average, the average as stars with one decimal everywhere,
 * the histogram adding up to the rated viewings, and a line saying why rewatches can outnumber
 * viewings minus films.
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import {
  averageStars,
  countText,
  hoursText,
  ratedViewings,
} from "../lib/library/diary/stats_figures.ts";
import { testApp } from "./helpers/app.ts";
import { parseHtml, textOf } from "./helpers/dom.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";
import { send } from "./helpers/watched_entries.ts";
import { get, sessionCookie } from "./helpers/web.ts";

const [A, B, C] = [1_900_004_001, 1_900_004_002, 1_900_004_003];

Deno.test("the figures' words: thousands separated, the average in stars to one decimal", () => {
  assert.equal(countText(4555), "4,555");
  assert.equal(hoursText(1234.5), "1,234.5");
  assert.equal(hoursText(12), "12");
  assert.equal(averageStars(6.23), "3.1★");
  assert.equal(averageStars(8), "4.0★");
  assert.equal(ratedViewings(1), "1 rated viewing");
  assert.equal(ratedViewings(3962), "3,962 rated viewings");
});

/** The text of the definition under the term `term` in `doc`'s figures. */
function figure(html: string, term: string): string {
  const doc = parseHtml(html);
  const dt = [...doc.querySelectorAll("dt")].find((d) => textOf(d) === term);
  assert.ok(dt, `no figure ${term}`);
  return textOf(dt.nextElementSibling ?? dt.parentElement!.querySelector("dd")!);
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] /watched, /stats, /stats/YYYY, the profile and GET /api/stats show one figure each`, async () => {
    await using app = await testApp({ engine, clock: new FakeClock("2026-06-30T12:00:00Z") });
    const user = await createUser(app.deps);
    const cookie = { headers: { cookie: sessionCookie(user.token, user.email) } };
    // A: seen in 2024 (6), rewatched twice in 2026 (8, then 10); B once in 2026 (5); C watched
    // without a viewing, rated 7, on a 2026 date.
    for (
      const v of [
        { catalogId: A, watchedOn: "2024-05-01", rating: 6 },
        { catalogId: A, watchedOn: "2026-02-01", rating: 8 },
        { catalogId: A, watchedOn: "2026-03-01", rating: 10 },
        { catalogId: B, watchedOn: "2026-04-01", rating: 5 },
      ]
    ) {
      assert.equal((await app.request("/api/diary", send(user, "POST", v))).status, 201);
    }
    const watched = { catalogId: C, watchedOn: "2026-01-15", rating: 7 };
    assert.equal((await app.request("/api/watched", send(user, "POST", watched))).status, 200);

    const api = async (query: string) =>
      await (await app.request(`/api/stats${query}`, send(user, "GET", undefined))).json();
    const all = await api("");
    const year = await api("?year=2026");
    // Rated viewings, each at its own rating (the watched row's for C): 6, 8, 10, 5, 7.
    assert.deepEqual([all.films, all.viewings, all.ratings.count, all.ratings.average], [
      3,
      5,
      5,
      7.2,
    ]);
    assert.deepEqual(
      [year.films, year.viewings, year.rewatches, year.ratings.count, year.ratings.average],
      [3, 4, 2, 4, 7.5],
    );

    // /watched's strip: the same films, rated viewings and average as /stats (all time).
    const strip = textOf(
      parseHtml((await get(app, "/watched", cookie)).html)
        .querySelector(".stats")!,
    );
    assert.match(strip, /3\.6★/);
    assert.match(strip, /average of 5 rated viewings \(out of 5\)/);
    assert.match(strip, /movies 3 /);
    assert.match(strip, /watched in 2026 3 /);

    const stats = (await get(app, "/stats", cookie)).html;
    assert.equal(figure(stats, "Films"), "3");
    assert.equal(figure(stats, "Viewings"), "5");
    assert.equal(figure(stats, "Average rating"), "3.6★");
    assert.match(textOf(parseHtml(stats).querySelector(".review-note")!), /over 5 rated viewings/);

    // The year: 7.5 is 3.8★ (never rounded to a whole 4★), and the line under the figures says
    // why 2 rewatches stand beside 1 more viewing than films.
    const review = (await get(app, "/stats/2026", cookie)).html;
    assert.equal(figure(review, "Films"), "3");
    assert.equal(figure(review, "Viewings"), "4");
    assert.equal(figure(review, "Rewatches"), "2");
    assert.equal(figure(review, "Average rating"), "3.8★");
    const note = textOf(parseHtml(review).querySelector(".review-note")!);
    assert.match(note, /every viewing of a film you had seen before, before 2026 too/);
    assert.match(
      note,
      /viewings minus films \(1\) counts only the repeats within 2026\./,
    );
    assert.match(note, /over 4 rated viewings/);
    // The histogram counts rated viewings and adds up to them.
    const histogram = [...parseHtml(review).querySelectorAll("figure.chart table")]
      .find((t) => /Rated viewings in 2026 by stars/.test(textOf(t.querySelector("caption")!)));
    assert.ok(histogram, "no rating histogram");
    assert.equal(textOf(histogram.querySelectorAll("thead th")[1]), "Rated viewings");
    const counts = [...histogram.querySelectorAll("tbody td")].map((td) => Number(textOf(td)));
    assert.equal(counts.reduce((a, b) => a + b, 0), year.ratings.count);

    // The public profile shows the all-time figures the same way.
    const handle = `figures_${crypto.randomUUID().slice(0, 8)}`;
    const profile = { handle, displayName: "Fig", public: true, showStats: true };
    assert.equal(
      (await app.request("/api/me/profile", send(user, "PUT", profile))).status,
      200,
    );
    const page = textOf(parseHtml((await get(app, `/u/${handle}`)).html).querySelector("main")!);
    assert.match(page, /3\.6★ of 5 rated viewings/);
  });
}
