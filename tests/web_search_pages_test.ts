/** Server rendering of the search page (docs/website.md): results, paging, empty and no-match states. */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { getByRole, parseHtml, textOf } from "./helpers/dom.ts";
import { get, islandsOf } from "./helpers/web.ts";

const IMAGE_BASE = "http://images.test/t/p";

Deno.test("website: the search page renders on the server", async (t) => {
  await using tmdb = await startFakeTmdb();
  await using app = await testApp({ env: { ...tmdbEnv(tmdb), TMDB_IMAGE_BASE_URL: IMAGE_BASE } });

  await t.step(
    "/search?q= lists the matching movies, then the ones the API drops, marked",
    async () => {
      const { status, html } = await get(app, "/search?q=fight%20club");
      assert.equal(status, 200);
      const text = textOf(html);
      assert.match(text, /Results for “fight club”/);
      assert.ok(text.includes("Fight Club"));
      assert.ok(text.includes("Zombie Fight Club"));
      // No poster or no release date: GET /api/movies/search drops them (interface rule 2); the
      // website lists them after every complete row, marked (issue 31, item 11).
      const doc = parseHtml(html);
      const found = getByRole(doc, "list", { name: "Results for fight club" });
      assert.ok(!textOf(found.outerHTML).includes("Insane Fight Club"));
      const also = getByRole(doc, "list", { name: "Also found for fight club" });
      const alsoText = textOf(also.outerHTML);
      for (const title of ["Insane Fight Club", "Leopard Fight Club", "Jurassic Fight Club"]) {
        assert.ok(alsoText.includes(title), title);
      }
      assert.ok(text.indexOf("Zombie Fight Club") < text.indexOf("Also found: no poster"));
      const leopard = [...also.querySelectorAll("li")].find((li) =>
        li.textContent?.includes("Leopard Fight Club")
      );
      assert.match(leopard?.textContent ?? "", /Not yet released/);
      assert.equal(also.querySelectorAll("li").length, 7);
      const box = getByRole(doc, "searchbox", { name: "Search movies" });
      assert.equal(box.getAttribute("name"), "q");
      assert.equal(box.getAttribute("value"), "fight club");
      assert.equal(doc.title, "“fight club” · Search · Movies");
      // The results are the LiveSearch island's, so typing can replace them in place.
      const live = islandsOf(html).find((i) => i.name === "LiveSearch");
      assert.equal(live?.props.q, "fight club");
      assert.equal((live?.props.rows as unknown[]).length, text.match(/★/g)?.length);
      assert.ok(tmdb.requests.some((r) => r.path === "/search/movie"));
      assert.equal((live?.props.unlisted as unknown[]).length, 7);
    },
  );

  await t.step("the API keeps dropping them; include=unlisted answers them apart", async () => {
    const plain = await app.request("/api/movies/search?q=fight%20club");
    assert.equal(plain.status, 200);
    const body = await plain.json();
    assert.deepEqual(Object.keys(body), ["results"]);
    assert.ok(!body.results.some((r: { title: string }) => r.title === "Leopard Fight Club"));
    const asked = await app.request("/api/movies/search?q=fight%20club&include=unlisted");
    const both = await asked.json();
    assert.deepEqual(both.results, body.results);
    const leopard = both.unlisted.find((r: { title: string }) => r.title === "Leopard Fight Club");
    assert.equal(leopard.release_date, null);
    assert.equal(leopard.vote_average, 6);
    const wrong = await app.request("/api/movies/search?q=fight%20club&include=everything");
    assert.equal(wrong.status, 400);
    await wrong.body?.cancel();
  });

  await t.step(
    "/search pages on: a More results link to page 2, and page 2 links back",
    async () => {
      const first = await get(app, "/search?q=fight%20club");
      assert.match(
        first.html,
        /<nav class="pager" aria-label="Search pages"><a class="button button-secondary" href="\/search\?q=fight%20club&amp;page=2">More results<\/a><\/nav>/,
      );
      const live = islandsOf(first.html).find((i) => i.name === "LiveSearch");
      assert.equal(live?.props.page, 1);
      assert.equal(live?.props.totalPages, 2);

      const second = await get(app, "/search?q=fight%20club&page=2");
      assert.equal(second.status, 200);
      const request = tmdb.requests.findLast((r) => r.path === "/search/movie");
      assert.equal(request?.query.get("page"), "2");
      const text = textOf(second.html);
      assert.match(text, /\d+ movies on page 2/);
      assert.match(second.html, /<a href="\/search\?q=fight%20club">← Previous page<\/a>/);
      // TMDB has 2 pages for this query: no link past the last one.
      assert.doesNotMatch(second.html, />More results</);
      assert.match(second.html, /<title>“fight club” · page 2 · Search · Movies<\/title>/);

      // A page that is not 1-500 is the first page, not an error.
      for (const page of ["0", "501", "abc", "-1"]) {
        const other = await get(app, `/search?q=fight%20club&page=${page}`);
        assert.equal(other.status, 200, page);
        assert.equal(
          tmdb.requests.findLast((r) => r.path === "/search/movie")?.query.get("page"),
          "1",
        );
      }
    },
  );

  await t.step("/search without a query is the empty form, with no external call", async () => {
    const before = tmdb.requests.length;
    const { status, html } = await get(app, "/search?q=%20%20");
    assert.equal(status, 200);
    assert.match(textOf(html), /Search movies/);
    assert.equal(tmdb.requests.length, before);
  });

  await t.step("/search with no match says so", async () => {
    const search = tmdb.search;
    tmdb.search = () => ({ page: 1, results: [], total_pages: 0, total_results: 0 });
    try {
      const { html } = await get(app, "/search?q=qwertyuiop");
      assert.match(textOf(html), /No movies match “qwertyuiop”/);
    } finally {
      tmdb.search = search;
    }
  });
});
