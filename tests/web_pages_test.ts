/**
 * Server rendering of the website's reading pages (docs/website.md): home, search, movie
 * detail, the error pages, and the shell's landmarks, against a fake TMDB.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { POPULAR_FIXTURE_ROWS, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { getByRole, parseHtml, queryAllByRole, textOf } from "./helpers/dom.ts";
import { get, islandsOf } from "./helpers/web.ts";

const IMAGE_BASE = "http://images.test/t/p";

/** The `href` of the one link named `name` under `root`. */
function hrefOf(root: ParentNode, name: string | RegExp): string | null {
  return getByRole(root, "link", { name }).getAttribute("href");
}

/** The text of the definition that follows the term `term` in a description list. */
function definitionOf(root: ParentNode, term: string): string {
  const dt = queryAllByRole(root, "term").find((el) => textOf(el) === term);
  assert.ok(dt, `no term ${term}`);
  const dd = dt.nextElementSibling;
  assert.equal(dd?.tagName.toLowerCase(), "dd", `no definition after ${term}`);
  return textOf(dd!);
}

Deno.test("website: reading pages render on the server", async (t) => {
  await using tmdb = await startFakeTmdb();
  await using app = await testApp({ env: { ...tmdbEnv(tmdb), TMDB_IMAGE_BASE_URL: IMAGE_BASE } });

  await t.step(
    "every page has the shell: landmarks, skip link, stylesheet, no JS by default",
    async () => {
      const { status, headers, html } = await get(app, "/");
      assert.equal(status, 200);
      assert.match(headers.get("content-type") ?? "", /^text\/html/);
      assert.match(html, /^<!DOCTYPE html>/i);
      const doc = parseHtml(html);
      assert.equal(doc.documentElement.getAttribute("lang"), "en");
      for (const landmark of ["banner", "main", "contentinfo"]) getByRole(doc, landmark);
      getByRole(doc, "navigation", { name: "Main" });
      assert.equal(getByRole(doc, "main").id, "main");
      // The skip link comes first, so keyboard users reach it before the navigation.
      const skip = getByRole(doc, "link", { name: "Skip to content" });
      assert.equal(skip.getAttribute("href"), "#main");
      assert.equal(queryAllByRole(doc, "link")[0], skip);
      const stylesheet = doc.querySelector('link[rel="stylesheet"]');
      assert.match(stylesheet?.getAttribute("href") ?? "", /^\/static\/styles.css\?v=\w+$/);
      const viewport = doc.querySelector('meta[name="viewport"]');
      assert.equal(viewport?.getAttribute("content"), "width=device-width, initial-scale=1");
      assert.equal(doc.title, "Popular movies · Movies");
      const csp = headers.get("content-security-policy") ?? "";
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /img-src 'self' data: http:\/\/images\.test(;|$)/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(headers.get("x-frame-options"), "DENY");
      // Signed out, the home page has no island: its one script registers the service worker
      // (a few hundred bytes), so installing the app from the first page gives the offline shell.
      assert.deepEqual(islandsOf(html), []);
      assert.deepEqual(
        Array.from(doc.querySelectorAll("script")).map((s) =>
          s.getAttribute("src")?.replace(/\?v=\w+$/, "")
        ),
        ["/static/islands/_worker.js"],
      );
      const nav = getByRole(doc, "navigation", { name: "Main" });
      assert.equal(
        getByRole(nav, "link", { current: "page" }),
        getByRole(nav, "link", { name: "Popular" }),
      );
      assert.equal(hrefOf(nav, "Popular"), "/");
      assert.equal(hrefOf(getByRole(doc, "banner"), "Sign in"), "/login?next=%2F");
    },
  );

  await t.step("/ shows the popular grid with lazy posters and a search box", async () => {
    const doc = parseHtml((await get(app, "/")).html);
    const text = textOf(doc);
    const hrefs = queryAllByRole(getByRole(doc, "main"), "link").map((a) => a.getAttribute("href"));
    for (const row of POPULAR_FIXTURE_ROWS.slice(0, 5)) {
      assert.ok(text.includes(String(row.title)), `missing ${row.title}`);
      assert.ok(hrefs.includes(`/movies/${row.id}`), `no link to ${row.id}`);
    }
    const first = POPULAR_FIXTURE_ROWS[0];
    const firstPoster = queryAllByRole(doc, "img", { name: `Poster of ${first.title}` })[0];
    assert.equal(firstPoster?.getAttribute("src"), `${IMAGE_BASE}/w342${first.poster_path}`);
    const search = getByRole(doc, "search");
    assert.equal(search.tagName.toLowerCase(), "form");
    assert.equal(search.getAttribute("method"), "get");
    assert.equal(search.getAttribute("action"), "/search");
    assert.equal(
      getByRole(search, "searchbox", { name: "Search movies" }).getAttribute("name"),
      "q",
    );
    const images = queryAllByRole(doc, "img");
    assert.equal(images.length, POPULAR_FIXTURE_ROWS.length);
    assert.equal(doc.querySelectorAll("img").length, images.length, "an <img> without a role");
    for (const img of images) {
      assert.match(img.getAttribute("alt") ?? "", /^Poster of .+/);
      assert.equal(img.getAttribute("loading"), "lazy");
    }
    assert.equal(hrefOf(doc, "More movies →"), "/?page=2");
  });

  await t.step("/?page=2 shows the next page and a way back", async () => {
    const { html } = await get(app, "/?page=2");
    assert.match(textOf(html), /Popular right now · page 2/);
    assert.equal(hrefOf(parseHtml(html), "← Previous"), "/");
    const { status } = await get(app, "/?page=abc");
    assert.equal(status, 200);
  });

  await t.step("/movies/:id shows every detail field", async () => {
    const { status, html } = await get(app, "/movies/550");
    assert.equal(status, 200);
    const doc = parseHtml(html);
    const text = textOf(doc);
    getByRole(doc, "heading", { level: 1, name: "Fight Club" });
    const movie = getByRole(doc, "article", { name: "Fight Club" });
    assert.equal(doc.title, "Fight Club (1999) · Movies");
    const poster = getByRole(movie, "img", { name: "Poster of Fight Club" });
    assert.equal(poster.getAttribute("src"), `${IMAGE_BASE}/w500/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg`);
    assert.match(text, /★ 8\.4/);
    assert.match(text, /1999/);
    assert.match(text, /\dh \d+m/);
    const genres = queryAllByRole(getByRole(movie, "list", { name: "Genres" }), "listitem");
    assert.equal(textOf(genres[0]), "Drama");
    assert.match(definitionOf(movie, "Director"), /^[^,]+$/);
    assert.match(definitionOf(movie, "Cast"), /^[^,]+, [^,]+/);
    const hrefs = queryAllByRole(movie, "link").map((a) => a.getAttribute("href") ?? "");
    assert.ok(
      hrefs.some((h) => /^https:\/\/www\.youtube\.com\/watch\?v=\w+$/.test(h)),
      "no trailer",
    );
    assert.match(text, /insomniac/);
    // Signed out: a sign-in link instead of the buttons, and still no JavaScript.
    const signIn = getByRole(movie, "link", { name: "Sign in" });
    assert.equal(signIn.getAttribute("href"), "/login?next=%2Fmovies%2F550");
    assert.match(textOf(signIn.parentElement!), /^Sign in to mark this movie/);
    assert.deepEqual(islandsOf(html), []);
  });

  await t.step(
    "/movies/:id shows where to watch by kind, with logos and JustWatch's credit",
    async () => {
      const { html } = await get(app, "/movies/550");
      const text = textOf(html);
      const doc = parseHtml(html);
      getByRole(doc, "heading", { name: "Where to watch in United States", level: 2 });
      // The fixture's US offers: fuboTV streams; Amazon Video rents and sells.
      assert.match(text, /Stream\s*fuboTV/);
      const rent = getByRole(doc, "list", { name: "Rent" });
      const logo = getByRole(rent, "img", { name: "Amazon Video" });
      assert.match(logo.getAttribute("src") ?? "", /\/w92\/5NyLm42TmCqCMOZFvH4fcoSNKEW\.jpg$/);
      getByRole(doc, "heading", { name: "Rent", level: 3 });
      getByRole(doc, "heading", { name: "Buy", level: 3 });
      assert.ok(
        text.indexOf("Stream") < text.indexOf("Rent") && text.indexOf("Rent") < text.indexOf("Buy"),
      );
      assert.match(text, /Streaming data by JustWatch/);
      const tmdbLinks = queryAllByRole(doc, "link").map((a) => a.getAttribute("href"));
      assert.ok(
        tmdbLinks.includes("https://www.themoviedb.org/movie/550-fight-club/watch?locale=US"),
        "TMDB's page for the region",
      );
      const form = doc.querySelector("form.region-form");
      assert.equal(form?.getAttribute("method"), "get");
      // Back at this section after the choice, not at the top of the page.
      assert.equal(form?.getAttribute("action"), "/movies/550#where-to-watch");
    },
  );

  await t.step(
    "/movies/:id?region= picks the region; an unknown one falls back, an empty one says so",
    async () => {
      const gb = await get(app, "/movies/550?region=gb");
      assert.match(textOf(gb.html), /Where to watch in United Kingdom/);
      const fallback = await get(app, "/movies/550?region=XX");
      assert.equal(fallback.status, 200);
      assert.match(textOf(fallback.html), /Where to watch in United States/);
      // Antarctica is not in TMDB's results at all.
      const none = textOf((await get(app, "/movies/550?region=AQ")).html);
      assert.match(none, /No streaming, rental or purchase offers are known in Antarctica\./);
      assert.match(none, /Streaming data by JustWatch/);
    },
  );

  await t.step("a movie without poster, trailer or runtime shows placeholders", async () => {
    tmdb.movies.set(4242, {
      ...tmdb.movies.get(550),
      id: 4242,
      title: "Bare Movie",
      poster_path: null,
      runtime: 0,
      videos: { results: [] },
    });
    const { html } = await get(app, "/movies/4242");
    getByRole(parseHtml(html), "img", { name: "No poster for Bare Movie" });
    assert.doesNotMatch(html, /youtube/);
    assert.doesNotMatch(textOf(html), /N\/A/);
  });

  await t.step("unknown pages and movies answer the 404 page", async () => {
    for (const path of ["/nope", "/movies/abc", "/movies/0", "/movies/99999999999"]) {
      const { status, headers, html } = await get(app, path);
      assert.equal(status, 404, path);
      assert.match(headers.get("content-type") ?? "", /^text\/html/);
      const doc = parseHtml(html);
      getByRole(doc, "heading", { level: 1, name: "Page not found" });
      assert.equal(getByRole(doc, "main").id, "main", path);
    }
    const { status, html } = await get(app, "/movies/123456789");
    assert.equal(status, 404);
    assert.match(textOf(html), /couldn't find that movie/);
  });

  await t.step("API paths keep their problem documents", async () => {
    const response = await app.request("/api/nope");
    assert.equal(response.status, 404);
    assert.match(response.headers.get("content-type") ?? "", /^application\/problem\+json/);
    await response.body?.cancel();
  });

  await t.step("a failing catalog gives the 500 page on a detail, without internals", async () => {
    tmdb.override = (req) =>
      req.path === "/movie/551" ? new Response("oops", { status: 500 }) : undefined;
    try {
      const { status, html } = await get(app, "/movies/551");
      assert.ok(status >= 500, String(status));
      assert.match(textOf(html), /Something (went wrong|broke)|Temporarily unavailable/);
      assert.doesNotMatch(html, /oops|stack|TMDB_API_KEY/);
    } finally {
      tmdb.override = undefined;
    }
  });

  await t.step("a failing feed keeps the home page usable: message and search box", async () => {
    tmdb.override = (req) =>
      req.path === "/movie/popular" ? new Response("{}", { status: 503 }) : undefined;
    try {
      const { status, html } = await get(app, "/?page=3");
      assert.ok(status >= 500);
      const doc = parseHtml(html);
      getByRole(doc, "alert");
      getByRole(doc, "searchbox", { name: "Search movies" });
    } finally {
      tmdb.override = undefined;
    }
  });
});
