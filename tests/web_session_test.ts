/**
 * The page session (docs/website.md): pages render for the user of the supabase-js session
 * cookie; a bad cookie renders signed out (with the refresh island); /api never reads it.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { providersEnv } from "./helpers/fake_ai.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { markWatched, seedMovies, setMyList } from "./helpers/recommend_world.ts";
import { createUser } from "./helpers/users.ts";
import { getByRole, parseHtml, textOf } from "./helpers/dom.ts";
import { get, islandsOf, sessionCookie } from "./helpers/web.ts";
import { accessTokenOf, SESSION_COOKIE } from "../lib/web/session_cookie.ts";
import { safeNext } from "../lib/web/next.ts";

Deno.test("website: pages render for the user of the session cookie", async (t) => {
  await using tmdb = await startFakeTmdb();
  // A provider is configured (never called here), so /recommendations offers "Ask the AI".
  await using app = await testApp({
    env: { ...tmdbEnv(tmdb), ...providersEnv([{ name: "fake", baseUrl: "http://127.0.0.1:9" }]) },
  });
  await seedMovies(app.store, [
    { id: 101, title: "Alpha Film", year: 2001, genres: ["Drama"] },
    { id: 102, title: "Beta Film", year: 2002, genres: ["Comedy"] },
    { id: 103, title: "Gamma Film", year: 2003 },
  ]);
  const user = await createUser(app.deps, { email: "viewer@example.test" });
  const other = await createUser(app.deps);
  await markWatched(app.store, user.id, [101, 102]);
  await setMyList(app.store, user.id, [103, 550]);
  await markWatched(app.store, other.id, [103]);
  const cookie = { cookie: sessionCookie(user.token, user.email) };

  await t.step("the header shows the signed-in user and a sign-out island", async () => {
    const { html, headers } = await get(app, "/", { headers: cookie });
    assert.match(textOf(html), /viewer@example\.test/);
    // The header's sign-out, the home page's "Movie night", its rating queue (two watched films
    // are unrated), then each popular card's Add to list.
    const names = islandsOf(html).map((i) => i.name);
    assert.deepEqual(names.slice(0, 3), ["SignOutButton", "NightStart", "RateQueue"]);
    assert.ok(names.length > 3 && names.slice(3).every((n) => n === "AddToList"), names.join());
    const scripts = Array.from(parseHtml(html).querySelectorAll("script"));
    // An entry per island the page rendered (the page before the shell), then the entry that
    // marks the page hydrated.
    assert.deepEqual(
      scripts.map((s) => (s.getAttribute("src") ?? "").replace(/\?v=\w+$/, "")),
      [
        "/static/islands/NightStart.js",
        "/static/islands/RateQueue.js",
        "/static/islands/AddToList.js",
        "/static/islands/SignOutButton.js",
        "/static/islands/_ready.js",
        "/static/islands/_worker.js",
      ],
    );
    assert.ok(scripts.every((s) => s.getAttribute("type") === "module"));
    assert.equal(headers.get("cache-control"), "private, no-store");
    assert.doesNotMatch(html, /Sign up/);
  });

  await t.step(
    "/watched lists the user's watched cards, newest first, in the ListGrid island",
    async () => {
      const { status, html } = await get(app, "/watched", { headers: cookie });
      assert.equal(status, 200);
      const grid = islandsOf(html).find((i) => i.name === "ListGrid");
      assert.ok(grid);
      assert.equal(grid.props.list, "watched");
      const cards = grid.props.cards as { catalogId: number; title: string }[];
      assert.deepEqual(cards.map((c) => c.catalogId), [102, 101]);
      const text = textOf(html);
      assert.ok(text.indexOf("Beta Film") < text.indexOf("Alpha Film"));
      getByRole(parseHtml(html), "button", { name: "Remove Beta Film from Watched" });
      assert.ok(!text.includes("Gamma Film"), "another user's movie leaked");
    },
  );

  await t.step("/mylist lists My List in saved order, with fallback cards", async () => {
    const { html } = await get(app, "/mylist", { headers: cookie });
    const grid = islandsOf(html).find((i) => i.name === "ListGrid");
    assert.ok(grid);
    const cards = grid.props.cards as { catalogId: number; title: string }[];
    assert.deepEqual(cards.map((c) => c.catalogId), [103, 550]);
    // 550 is not in the movies store yet: a fallback card, named by its id.
    assert.match(textOf(html), /Movie #550/);
    getByRole(parseHtml(html), "img", { name: "No poster for Movie #550" });
  });

  await t.step("empty lists show their empty state", async () => {
    const { html } = await get(app, "/watched", {
      headers: { cookie: sessionCookie(other.token) },
    });
    assert.doesNotMatch(textOf(html), /haven't marked/); // other has one watched movie
    const fresh = await createUser(app.deps);
    const watched = await get(app, "/watched", { headers: { cookie: sessionCookie(fresh.token) } });
    assert.match(textOf(watched.html), /You haven't marked any movies as watched yet/);
    const mylist = await get(app, "/mylist", { headers: { cookie: sessionCookie(fresh.token) } });
    assert.match(textOf(mylist.html), /My List is empty/);
  });

  await t.step("signed out, list pages prompt to sign in and come back", async () => {
    for (const path of ["/watched", "/mylist", "/recommendations"]) {
      const { status, html } = await get(app, path);
      assert.equal(status, 200);
      const main = getByRole(parseHtml(html), "main");
      const signIn = getByRole(main, "link", { name: "Sign in" });
      assert.equal(signIn.getAttribute("href"), `/login?next=${encodeURIComponent(path)}`);
      assert.deepEqual(islandsOf(html), []);
    }
  });

  await t.step("the movie page gives the buttons the user's state", async () => {
    const watched = islandsOf((await get(app, "/movies/550", { headers: cookie })).html);
    const buttons = watched.find((i) => i.name === "ListButtons");
    assert.ok(buttons);
    assert.deepEqual(
      { ...buttons.props, loginHref: undefined },
      {
        catalogId: 550,
        title: "Fight Club",
        watched: false,
        inMyList: true,
        loginHref: undefined,
      },
    );
    await markWatched(app.store, user.id, [550]);
    await setMyList(app.store, user.id, [103]);
    const after = islandsOf((await get(app, "/movies/550", { headers: cookie })).html)
      .find((i) => i.name === "ListButtons");
    assert.equal(after?.props.watched, true);
    assert.equal(after?.props.inMyList, false);
  });

  await t.step("/recommendations renders the island for the user", async () => {
    const { html } = await get(app, "/recommendations", { headers: cookie });
    const rec = islandsOf(html).find((i) => i.name === "Recommendations");
    assert.ok(rec);
    // Nothing stored yet: no set, and the quota read on the server (nothing spent).
    assert.equal(rec.props.set, null);
    assert.equal((rec.props.quota as { remaining: number }).remaining, 20);
    const button = getByRole(parseHtml(html), "button", { name: "Get recommendations" });
    assert.equal(button.getAttribute("type"), "button");
  });

  await t.step(
    "an expired or forged cookie renders signed out, with the refresh island",
    async () => {
      const forged = user.token.slice(0, -4) + "AAAA";
      for (const value of [sessionCookie(forged), `${SESSION_COOKIE}=not-json`]) {
        const { html, headers } = await get(app, "/watched", { headers: { cookie: value } });
        const main = getByRole(parseHtml(html), "main");
        getByRole(main, "link", { name: "Sign in" });
        assert.match(textOf(main), /Sign in to see Watched/);
        assert.deepEqual(islandsOf(html).map((i) => i.name), ["SessionRefresh"]);
        assert.equal(headers.get("cache-control"), "no-cache");
      }
    },
  );

  await t.step("the cookie never authenticates the API: only the Bearer header does", async () => {
    const response = await app.request("/api/watched", { headers: cookie });
    assert.equal(response.status, 401);
    await response.body?.cancel();
    const bearer = await app.request("/api/watched", { headers: user.headers });
    assert.equal(bearer.status, 200);
    await bearer.body?.cancel();
  });

  await t.step("/login and /signup send a signed-in visitor on to a local next", async () => {
    const response = await app.request("/login?next=%2Fmylist", { headers: cookie });
    assert.equal(response.status, 303);
    assert.equal(response.headers.get("location"), "/mylist");
    const evil = await app.request("/signup?next=//evil.example", { headers: cookie });
    assert.equal(evil.headers.get("location"), "/");
  });

  await t.step("/login and /signup render the AuthForm island with a safe next", async () => {
    const login = islandsOf((await get(app, "/login?next=%2Fwatched")).html);
    assert.deepEqual(login, [{ name: "AuthForm", props: { mode: "login", next: "/watched" } }]);
    const signup = islandsOf((await get(app, "/signup?next=https%3A%2F%2Fevil.example")).html);
    assert.deepEqual(signup, [{ name: "AuthForm", props: { mode: "signup", next: "/" } }]);
    const posted = await get(app, "/login", { method: "POST" });
    assert.equal(posted.status, 200);
    assert.match(textOf(posted.html), /Signing in needs JavaScript/);
  });
});

Deno.test("website: the signup page shows the configured captcha widget", async () => {
  await using app = await testApp({
    env: { CAPTCHA_SECRET: "secret", CAPTCHA_PROVIDER: "hcaptcha", CAPTCHA_SITE_KEY: "site-key-1" },
  });
  const { html, headers } = await get(app, "/signup");
  // The widget's script and frames are allowed by the page's policy.
  assert.match(
    headers.get("content-security-policy") ?? "",
    /script-src 'self' https:\/\/hcaptcha\.com/,
  );
  const form = islandsOf(html).find((i) => i.name === "AuthForm");
  assert.deepEqual(form?.props.captcha, { provider: "hcaptcha", siteKey: "site-key-1" });
  const widget = parseHtml(html).querySelector("[data-captcha]");
  assert.equal(widget?.getAttribute("data-captcha"), "hcaptcha");
  assert.equal(widget?.getAttribute("data-sitekey"), "site-key-1");
  // Sign-in needs no captcha.
  const login = islandsOf((await get(app, "/login")).html).find((i) => i.name === "AuthForm");
  assert.equal(login?.props.captcha, undefined);
});

Deno.test("website: the session cookie's access token and the next path are read safely", () => {
  const value = encodeURIComponent(JSON.stringify({ access_token: "a.b.c", refresh_token: "r" }));
  assert.equal(accessTokenOf(value), "a.b.c");
  for (const bad of [undefined, "", "%", "null", encodeURIComponent('{"access_token":5}')]) {
    assert.equal(accessTokenOf(bad), undefined, String(bad));
  }
  assert.equal(safeNext("/movies/5?x=1"), "/movies/5?x=1");
  for (const bad of [null, "", "https://evil", "//evil", "/\\evil", "/a\nb", "movies"]) {
    assert.equal(safeNext(bad), "/", String(bad));
  }
});

Deno.test("website: with Supabase configured, the browser signs in there", async () => {
  await using app = await testApp({
    env: { SUPABASE_URL: "https://project.supabase.example", SUPABASE_ANON_KEY: "anon-key-1" },
  });
  const doc = parseHtml((await get(app, "/login")).html);
  const meta = (name: string) => doc.querySelector(`meta[name="${name}"]`)?.getAttribute("content");
  assert.equal(meta("supabase-url"), "https://project.supabase.example");
  assert.equal(meta("supabase-anon-key"), "anon-key-1");
  // Without it, supabase-js talks to this site's own /auth/v1: no meta at all.
  await using local = await testApp();
  assert.doesNotMatch((await get(local, "/login")).html, /supabase-url/);
});
