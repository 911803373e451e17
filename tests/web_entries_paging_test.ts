/**
 * The website's list pages page by 60 (docs/website.md): `?page=N` in the URL, a "More" link
 * that works without JavaScript and an API read for appending in place, sorts and filters kept
 * across pages, and the counts and stats of the whole list from SQL.
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import type { Store } from "../lib/platform/store/mod.ts";
import { testApp } from "./helpers/app.ts";
import { parseHtml, textOf } from "./helpers/dom.ts";
import { createUser } from "./helpers/users.ts";
import { get, islandsOf, sessionCookie } from "./helpers/web.ts";

type Grid = { cards: { catalogId: number }[]; more?: { href: string; api: string } };

// 130 movies (every third a Drama), watched one minute apart, and the same on My List.
async function seed(store: Store, userId: string) {
  await store.query(
    `insert into public.movies (catalog_id, title, original_title, year, runtime, genres,
       poster_path, has_details)
     select g, 'Film ' || lpad(g::text, 3, '0'), 'Film ' || g, 1950 + g % 70, 90 + g % 60,
       case when g % 3 = 0 then array['Drama'] else array['Comedy'] end, '/p' || g || '.jpg', true
       from generate_series(1, 130) g
     on conflict (catalog_id) do nothing`,
  );
  await store.query(
    `insert into public.user_watched_movies (user_id, catalog_id, created_at, rating, watched_on)
     select $1::uuid, g, timestamptz '2024-01-01' + g * interval '1 minute', 1 + g % 10,
       date '2023-01-01' + g
       from generate_series(1, 130) g`,
    [userId],
  );
  await store.query(
    `insert into public.user_my_list (user_id, catalog_ids)
     select $1::uuid, array_agg(g order by g) from generate_series(1001, 1130) g`,
    [userId],
  );
}

const range = (from: number, to: number) =>
  Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => from < to ? from + i : from - i);

Deno.test("website: list pages render 60 cards a page with ?page=, More and the whole list's counts", async (t) => {
  await using app = await testApp({ clock: new FakeClock("2024-07-01T12:00:00Z") });
  const user = await createUser(app.deps, { email: "pages@example.test" });
  await seed(app.store, user.id);
  const cookie = { headers: { cookie: sessionCookie(user.token, user.email) } };
  const page = async (path: string) => {
    const { status, html } = await get(app, path, cookie);
    assert.equal(status, 200, path);
    const island = islandsOf(html).find((i) => i.name === "ListGrid");
    assert.ok(island, "no ListGrid");
    return {
      html,
      grid: island.props as Grid,
      ids: (island.props as Grid).cards.map((c) => c.catalogId),
    };
  };
  const moreLink = (html: string) =>
    parseHtml(html).querySelector(".list-more a")?.getAttribute("href") ?? null;

  await t.step("page 1: the newest 60, a More link to page 2, the stats of all 130", async () => {
    const { html, grid, ids } = await page("/watched");
    assert.deepEqual(ids, range(130, 71));
    assert.equal(moreLink(html), "/watched?page=2");
    assert.equal(grid.more?.href, "/watched?page=2");
    assert.match(textOf(html), /Movies 1–60 of 130/);
    // The strip counts the whole history, not the cards rendered.
    assert.match(textOf(html), /Your numbers movies 130/);
    assert.equal(parseHtml(html).querySelectorAll(".list-grid [data-remove]").length, 60);
  });

  await t.step("More's API read appends exactly what page 2 renders", async () => {
    const first = await page("/watched");
    const res = await app.request(first.grid.more!.api, { headers: user.headers ?? {} });
    const body = await res.json();
    assert.equal(res.status, 200, JSON.stringify(body));
    const second = await page("/watched?page=2");
    assert.deepEqual(body.movies.map((m: { catalogId: number }) => m.catalogId), second.ids);
    assert.deepEqual(second.ids, range(70, 11));
    assert.ok(body.movies[0].entry, "the appended cards carry their entries");
  });

  await t.step("the last page: the rest, no More, a way back to the first", async () => {
    const { html, ids } = await page("/watched?page=3");
    assert.deepEqual(ids, range(10, 1));
    assert.equal(moreLink(html), null);
    assert.match(textOf(html), /Movies 121–130 of 130/);
    assert.ok(parseHtml(html).querySelector('a[href="/watched"]'));
  });

  await t.step("sort and filter carry across pages; a bad page reads as the first", async () => {
    const titled = await page("/watched?sort=title&genre=Drama");
    assert.deepEqual(titled.ids, range(1, 43).map((i) => i * 3));
    assert.equal(moreLink(titled.html), null);
    const byTitle = await page("/watched?sort=title");
    assert.deepEqual(byTitle.ids, range(1, 60));
    assert.equal(moreLink(byTitle.html), "/watched?sort=title&page=2");
    const next = await page("/watched?sort=title&page=2");
    assert.deepEqual(next.ids, range(61, 120));
    for (const bad of ["0", "-1", "x", "1.5"]) {
      assert.deepEqual((await page(`/watched?page=${bad}`)).ids, range(130, 71), bad);
    }
    const past = await page("/watched?page=9");
    assert.deepEqual(past.ids, []);
    assert.match(textOf(past.html), /No movies on page 9/);
  });

  await t.step("My List pages the same way, in saved order", async () => {
    const first = await page("/mylist");
    assert.deepEqual(first.ids, range(1001, 1060));
    assert.equal(moreLink(first.html), "/mylist?page=2");
    const third = await page("/mylist?page=3");
    assert.deepEqual(third.ids, range(1121, 1130));
  });

  await t.step("a page stays under 250 KB", async () => {
    const { html } = await page("/watched");
    assert.ok(new TextEncoder().encode(html).length < 250_000);
  });
});
