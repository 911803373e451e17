/**
 * Server rendering of the history on the website (docs/entries.md): the watched page's
 * sort and filter form driven by the URL (bad values ignored), each card's entry, the stats
 * strip, My List's sort, and the movie page's entry for the rating form.
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { createEntriesService } from "../lib/library/entries/mod.ts";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { seedHistory } from "./helpers/entries_world.ts";
import { createUser } from "./helpers/users.ts";
import { getByRole, nameOf, parseHtml, queryAllByRole, textOf } from "./helpers/dom.ts";
import { get, islandsOf, sessionCookie } from "./helpers/web.ts";

type Card = { catalogId: number; entry?: { rating: number | null; watchedOn: string | null } };

Deno.test("website: the watched and My List pages sort and filter by the URL, with entries and stats", async (t) => {
  await using tmdb = await startFakeTmdb();
  await using app = await testApp({
    env: tmdbEnv(tmdb),
    clock: new FakeClock("2024-07-01T12:00:00Z"),
  });
  const user = await createUser(app.deps, { email: "history@example.test" });
  await seedHistory(app.store, { watcher: user.id, saver: user.id });
  const cookie = { headers: { cookie: sessionCookie(user.token, user.email) } };
  const grid = (html: string) => {
    const island = islandsOf(html).find((i) => i.name === "ListGrid");
    assert.ok(island, "no ListGrid");
    return island.props as { cards: Card[]; filtered: boolean };
  };

  await t.step(
    "/watched without a parameter: the list's own order, every card with its entry",
    async () => {
      const { status, html } = await get(app, "/watched", cookie);
      assert.equal(status, 200);
      const { cards, filtered } = grid(html);
      assert.deepEqual(cards.map((c) => c.catalogId), [7, 6, 5, 4, 3, 2, 1]);
      assert.equal(filtered, false);
      assert.deepEqual(cards[0].entry && [cards[0].entry.rating, cards[0].entry.watchedOn], [
        2,
        "2021-12-12",
      ]);
      const text = textOf(html);
      assert.match(text, /★ 1\s*Your rating: 1 of 5 stars\s*Watched 12 Dec 2021/);
      assert.match(text, /Not rated\s*Watched 1 Jun 2024/);
      // The form shows the default choice and offers no reset.
      const form = parseHtml(html).querySelector("form.list-controls");
      assert.equal(form?.getAttribute("method"), "get");
      assert.equal(form?.getAttribute("action"), "/watched");
      assert.deepEqual(choices(html), {
        "Sort by": "Date added",
        Order: "Usual order",
        Genre: "All genres",
        Rating: "Rated or not",
      });
      assert.equal(queryAllByRole(parseHtml(html), "link", { name: "Reset" }).length, 0);
    },
  );

  await t.step("the stats strip counts the whole history", async () => {
    const text = textOf((await get(app, "/watched?rated=false", cookie)).html);
    assert.match(text, /Your numbers movies 7 hours watched 10/);
    assert.match(text, /watched in 2024 3/);
    assert.match(text, /average of 5 rated viewings \(out of 5\) 3\.1★/);
    assert.match(text, /Top genres Drama 3 Comedy 2 Science Fiction 2 Crime 1 Horror 1/);
  });

  await t.step("the URL's sort, order, genre and rated apply and show in the form", async () => {
    const { html } = await get(
      app,
      "/watched?sort=rating&order=asc&genre=drama&rated=true",
      cookie,
    );
    const { cards, filtered } = grid(html);
    assert.deepEqual(cards.map((c) => c.catalogId), [7, 4]);
    assert.equal(filtered, true);
    assert.deepEqual(choices(html), {
      "Sort by": "Your rating",
      Order: "Ascending",
      Genre: "Drama",
      Rating: "Rated",
    });
    const reset = getByRole(parseHtml(html), "link", { name: "Reset" });
    assert.equal(reset.getAttribute("href"), "/watched");
  });

  await t.step("a sort without an order takes its usual one: titles A to Z", async () => {
    const { html } = await get(app, "/watched?sort=title&order=", cookie);
    assert.deepEqual(grid(html).cards.map((c) => c.catalogId), [2, 1, 6, 7, 4, 3, 5]);
    assert.equal(choices(html).Order, "Usual order");
  });

  await t.step("a value the list does not take is ignored, not an error page", async () => {
    const { status, html } = await get(app, "/watched?sort=saved&order=&genre=Nope&rated=", cookie);
    assert.equal(status, 200);
    assert.deepEqual(grid(html).cards.map((c) => c.catalogId), [7, 6, 5, 4, 3, 2, 1]);
    const year = await get(app, "/watched?sort=bogus&genre=comedy", cookie);
    assert.deepEqual(grid(year.html).cards.map((c) => c.catalogId), [6, 1]);
  });

  await t.step("a filter matching nothing says so, with the form still there", async () => {
    const { html } = await get(app, "/watched?genre=western", cookie);
    assert.match(textOf(html), /No movies in Watched match these choices\./);
    assert.ok(parseHtml(html).querySelector("form.list-controls"), "the form is still there");
  });

  await t.step("/mylist sorts by title through the URL, without entries or stats", async () => {
    const { html } = await get(app, "/mylist?sort=title", cookie);
    const { cards } = grid(html);
    assert.deepEqual(cards.map((c) => c.catalogId), [2, 1, 7, 4, 3, 5]);
    assert.ok(cards.every((c) => c.entry === undefined));
    assert.doesNotMatch(textOf(html), /Your numbers/);
    assert.equal(choices(html).Rating, undefined, "no rated filter on My List");
  });

  await t.step("the movie page hands a watched movie's entry to the buttons", async () => {
    await createEntriesService(app.deps).addWatched(user.id, 550, {
      fields: { rating: 9, note: "Again" },
    });
    const { html } = await get(app, "/movies/550", cookie);
    const buttons = islandsOf(html).find((i) => i.name === "ListButtons");
    assert.ok(buttons);
    const entry = buttons.props.entry as Record<string, unknown>;
    assert.equal(entry.rating, 9);
    assert.equal(entry.note, "Again");
    assert.equal(entry.watchedOn, "2024-07-01");
    const slider = getByRole(parseHtml(html), "slider", { name: "Your rating" });
    assert.equal(slider.getAttribute("aria-valuetext"), "4.5 of 5 stars");
    assert.match(textOf(html), /You've watched this movie, so it can't go on My List\./);
  });
});

/** Each select of the list form, by its label, with the option chosen (or the first). */
function choices(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const select of queryAllByRole(parseHtml(html), "combobox")) {
    const options = [...select.querySelectorAll("option")];
    const chosen = options.find((o) => o.hasAttribute("selected")) ?? options[0];
    out[nameOf(select)] = textOf(chosen);
  }
  return out;
}
