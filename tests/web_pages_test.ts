/**
 * Server rendering of the website's reading pages (contract section 9): home, search, movie
 * detail, the error pages, and the shell's landmarks, against a fake TMDB.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { POPULAR_FIXTURE_ROWS, startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { get, imagesOf, islandsOf, textOf } from "./helpers/web.ts";

const IMAGE_BASE = "http://images.test/t/p";

Deno.test("website: reading pages render on the server", async (t) => {
  await using tmdb = await startFakeTmdb();
  await using app = await testApp({ env: { ...tmdbEnv(tmdb), TMDB_IMAGE_BASE_URL: IMAGE_BASE } });

  await t.step(
    "every page has the shell: landmarks, skip link, stylesheet, no JS by default",
    async () => {
      const { status, headers, html } = await get(app, "/");
      assert.equal(status, 200);
      assert.match(headers.get("content-type") ?? "", /^text\/html/);
      assert.ok(html.startsWith('<!DOCTYPE html><html lang="en">'));
      for (const landmark of ["<header", "<nav", '<main id="main"', "<footer"]) {
        assert.ok(html.includes(landmark), `missing ${landmark}`);
      }
      assert.match(html, /<a class="skip-link" href="#main">Skip to content<\/a>/);
      assert.match(html, /<link rel="stylesheet" href="\/static\/styles.css\?v=\w+"/);
      assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1"/);
      assert.match(html, /<title>Popular movies · Movies<\/title>/);
      const csp = headers.get("content-security-policy") ?? "";
      assert.match(csp, /script-src 'self'(;|$)/);
      assert.match(csp, /img-src 'self' data: http:\/\/images\.test(;|$)/);
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(headers.get("x-frame-options"), "DENY");
      // Signed out, the home page has no island: it ships no JavaScript at all.
      assert.deepEqual(islandsOf(html), []);
      assert.doesNotMatch(html, /<script/);
      assert.match(html, /<a href="\/" aria-current="page">Popular<\/a>/);
      assert.match(html, /href="\/login\?next=%2F">Sign in</);
    },
  );

  await t.step("/ shows the popular grid with lazy posters and a search box", async () => {
    const { html } = await get(app, "/");
    const text = textOf(html);
    for (const row of POPULAR_FIXTURE_ROWS.slice(0, 5)) {
      assert.ok(text.includes(String(row.title)), `missing ${row.title}`);
      assert.ok(html.includes(`href="/movies/${row.id}"`));
    }
    const first = POPULAR_FIXTURE_ROWS[0];
    assert.ok(html.includes(`src="${IMAGE_BASE}/w342${first.poster_path}"`));
    assert.match(html, /<form class="search" role="search" method="get" action="\/search">/);
    assert.match(html, /<label for="search-q">Search movies<\/label>/);
    const images = imagesOf(html);
    assert.equal(images.length, POPULAR_FIXTURE_ROWS.length);
    for (const img of images) {
      assert.match(img, /alt="Poster of [^"]+"/);
      assert.match(img, /loading="lazy"/);
    }
    assert.match(html, /<a href="\/\?page=2">More movies →<\/a>/);
  });

  await t.step("/?page=2 shows the next page and a way back", async () => {
    const { html } = await get(app, "/?page=2");
    assert.match(textOf(html), /Popular right now · page 2/);
    assert.match(html, /<a href="\/">← Previous<\/a>/);
    const { status } = await get(app, "/?page=abc");
    assert.equal(status, 200);
  });

  await t.step("/search?q= lists the matching movies, without the rows the API drops", async () => {
    const { status, html } = await get(app, "/search?q=fight%20club");
    assert.equal(status, 200);
    const text = textOf(html);
    assert.match(text, /Results for “fight club”/);
    assert.ok(text.includes("Fight Club"));
    assert.ok(text.includes("Zombie Fight Club"));
    // No poster or no release date: dropped by the catalog, as GET /api/movies/search does.
    assert.ok(!text.includes("Insane Fight Club"));
    assert.ok(!text.includes("Leopard Fight Club"));
    assert.match(html, /<input id="search-q" type="search" name="q" value="fight club"/);
    assert.match(html, /<title>“fight club” · Search · Movies<\/title>/);
    // The results are the LiveSearch island's, so typing can replace them in place.
    const live = islandsOf(html).find((i) => i.name === "LiveSearch");
    assert.equal(live?.props.q, "fight club");
    assert.equal((live?.props.rows as unknown[]).length, text.match(/★/g)?.length);
    assert.ok(tmdb.requests.some((r) => r.path === "/search/movie"));
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

  await t.step("/movies/:id shows every detail field", async () => {
    const { status, html } = await get(app, "/movies/550");
    assert.equal(status, 200);
    const text = textOf(html);
    assert.match(html, /<h1 id="movie-title">Fight Club<\/h1>/);
    assert.match(html, /<title>Fight Club \(1999\) · Movies<\/title>/);
    assert.ok(html.includes(`src="${IMAGE_BASE}/w500/pB8BM7pdSp6B6Ih7QZ4DrQ3PmJK.jpg"`));
    assert.match(html, /alt="Poster of Fight Club"/);
    assert.match(text, /★ 8\.4/);
    assert.match(text, /1999/);
    assert.match(text, /\dh \d+m/);
    assert.match(html, /<ul class="chips" aria-label="Genres"><li>Drama<\/li>/);
    assert.match(html, /<dt>Director<\/dt><dd>[^<]+<\/dd>/);
    assert.match(html, /<dt>Cast<\/dt><dd>[^<]+, [^<]+<\/dd>/);
    assert.match(html, /href="https:\/\/www\.youtube\.com\/watch\?v=\w+"/);
    assert.match(text, /insomniac/);
    // Signed out: a sign-in link instead of the buttons, and still no JavaScript.
    assert.match(html, /<a href="\/login\?next=%2Fmovies%2F550">Sign in<\/a> to mark this movie/);
    assert.deepEqual(islandsOf(html), []);
  });

  await t.step(
    "/movies/:id shows where to watch by kind, with logos and JustWatch's credit",
    async () => {
      const { html } = await get(app, "/movies/550");
      const text = textOf(html);
      assert.match(html, /<h2 id="watch-heading">Where to watch in US<\/h2>/);
      // The fixture's US offers: fuboTV streams; Amazon Video rents and sells.
      assert.match(text, /Stream fuboTV/);
      assert.match(
        html,
        /<h3>Rent<\/h3><ul class="providers" aria-label="Rent"><li[^>]*><img src="[^"]+\/w92\/5NyLm42TmCqCMOZFvH4fcoSNKEW\.jpg" alt="Amazon Video"/,
      );
      assert.match(html, /<h3>Buy<\/h3>/);
      assert.ok(
        text.indexOf("Stream") < text.indexOf("Rent") && text.indexOf("Rent") < text.indexOf("Buy"),
      );
      assert.match(text, /Streaming data by JustWatch/);
      assert.match(
        html,
        /href="https:\/\/www\.themoviedb\.org\/movie\/550-fight-club\/watch\?locale=US"/,
      );
      assert.match(html, /<form class="region-form" method="get" action="\/movies\/550">/);
    },
  );

  await t.step(
    "/movies/:id?region= picks the region; an unknown one falls back, an empty one says so",
    async () => {
      const gb = textOf((await get(app, "/movies/550?region=gb")).html);
      assert.match(gb, /Where to watch in GB/);
      const fallback = await get(app, "/movies/550?region=XX");
      assert.equal(fallback.status, 200);
      assert.match(textOf(fallback.html), /Where to watch in US/);
      // Antarctica is not in TMDB's results at all.
      const none = textOf((await get(app, "/movies/550?region=AQ")).html);
      assert.match(none, /No streaming, rental or purchase offers are known in AQ\./);
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
    assert.match(html, /role="img" aria-label="No poster for Bare Movie"/);
    assert.doesNotMatch(html, /youtube/);
    assert.doesNotMatch(textOf(html), /N\/A/);
  });

  await t.step("unknown pages and movies answer the 404 page", async () => {
    for (const path of ["/nope", "/movies/abc", "/movies/0", "/movies/99999999999"]) {
      const { status, headers, html } = await get(app, path);
      assert.equal(status, 404, path);
      assert.match(headers.get("content-type") ?? "", /^text\/html/);
      assert.match(html, /<h1 id="error-heading">Page not found<\/h1>/, path);
      assert.match(html, /<main id="main"/);
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
      assert.match(html, /Something (went wrong|broke)|Temporarily unavailable/);
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
      assert.match(html, /role="alert"/);
      assert.match(html, /<form class="search"/);
    } finally {
      tmdb.override = undefined;
    }
  });
});

Deno.test("website: without TMDB credentials the reading pages say so and answer 200", async () => {
  // A fresh `deno task start` has no TMDB key: that is a setting, not an outage, so the home
  // and search pages are 200 with a note (monitoring keeps 5xx for real failures).
  await using app = await testApp();
  for (const path of ["/", "/?page=2", "/search?q=fight"]) {
    const { status, html } = await get(app, path);
    assert.equal(status, 200, path);
    assert.match(textOf(html), /Movie data isn't available yet: .*TMDB_API_KEY/, path);
    assert.match(html, /<form class="search"/, path);
  }
  assert.doesNotMatch((await get(app, "/")).html, /role="alert"/);
  // A movie page has nothing to show: its error page says why instead of "something broke".
  const detail = await get(app, "/movies/550");
  assert.equal(detail.status, 500);
  assert.match(textOf(detail.html), /no movie database credentials/);
  // One warning for the setting, not an error line per visit.
  const softLines = app.logs.filter((l) => l.code === "catalog_not_configured" && !l.path);
  assert.deepEqual(softLines.map((l) => l.level), ["warn"]);
  assert.ok(!app.logs.some((l) => l.level === "error" && l.path === "/"));
});
