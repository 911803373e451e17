/**
 * The list pages on the website: /lists and /lists/:id for the owner, the shared page /s/:slug
 * for anyone (Open Graph tags, noindex unless public, no email nor id), /u/:handle.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { parseHtml } from "./helpers/dom.ts";
import { addAll, json, makeList } from "./helpers/lists.ts";
import { createUser } from "./helpers/users.ts";
import { get, islandsOf, sessionCookie } from "./helpers/web.ts";

const meta = (doc: Document, attr: string, value: string) =>
  doc.querySelector(`meta[${attr}="${value}"]`)?.getAttribute("content") ?? null;

Deno.test("website: the owner's list pages, the shared page with its preview tags, and the public profile", async (t) => {
  await using app = await testApp();
  const user = await createUser(app.deps, { email: "lister@example.test" });
  await app.store.query(
    `insert into public.movies (catalog_id, title, year, poster_path, genres)
     values (424242, 'Poster Film', 2001, '/poster.jpg', '{Drama}')
     on conflict (catalog_id) do update set poster_path = excluded.poster_path`,
  );
  const id = await makeList(app, user, { name: "Rainy Sunday", description: "Cosy ones" });
  await addAll(app, user, id, [424242, 5]);
  const cookie = { headers: { cookie: sessionCookie(user.token, user.email) } };

  await t.step("/lists and /lists/:id show the list with its editor and share dialog", async () => {
    let page = await get(app, "/lists", cookie);
    assert.equal(page.status, 200);
    assert.match(page.html, /Rainy Sunday/);
    page = await get(app, `/lists/${id}`, cookie);
    assert.equal(page.status, 200);
    const names = islandsOf(page.html).map((i) => i.name);
    for (const name of ["ListEditor", "ShareDialog", "ListSettings"]) {
      assert.ok(names.includes(name));
    }
    const editor = islandsOf(page.html).find((i) => i.name === "ListEditor")!;
    assert.deepEqual(
      (editor.props.items as { catalogId: number }[]).map((i) => i.catalogId),
      [424242, 5],
    );
    const signedOut = await get(app, `/lists/${id}`);
    assert.doesNotMatch(signedOut.html, /Rainy Sunday/);
    const other = await createUser(app.deps);
    const denied = await get(app, `/lists/${id}`, {
      headers: { cookie: sessionCookie(other.token, other.email) },
    });
    assert.equal(denied.status, 404);
  });

  await t.step(
    "/s/:slug previews well, is noindex while unlisted, and shows nothing private",
    async () => {
      const res = await app.request(`/api/lists/${id}/share`, json(user, "POST"));
      const slug = new URL((await res.json()).shareUrl).pathname;
      let page = await get(app, slug);
      assert.equal(page.status, 200);
      let doc = parseHtml(page.html);
      assert.equal(meta(doc, "property", "og:title"), "Rainy Sunday");
      assert.equal(meta(doc, "property", "og:description"), "Cosy ones");
      assert.match(meta(doc, "property", "og:image") ?? "", /\/w500\/poster\.jpg$/);
      assert.equal(meta(doc, "name", "robots"), "noindex");
      for (const secret of [user.email, user.id, id]) assert.ok(!page.html.includes(secret));
      await app.request(`/api/lists/${id}`, json(user, "PATCH", { visibility: "public" }));
      page = await get(app, slug);
      doc = parseHtml(page.html);
      assert.equal(meta(doc, "name", "robots"), null);
      await app.request(`/api/lists/${id}/share`, json(user, "DELETE"));
      page = await get(app, slug);
      assert.equal(page.status, 404);
    },
  );

  await t.step("/u/:handle is 404 until the profile is public", async () => {
    await app.request(
      "/api/me/profile",
      json(user, "PUT", { handle: "lister", displayName: "Lister" }),
    );
    assert.equal((await get(app, "/u/lister")).status, 404);
    await app.request(`/api/lists/${id}`, json(user, "PATCH", { visibility: "public" }));
    await app.request(
      "/api/me/profile",
      json(user, "PUT", { handle: "lister", displayName: "Lister", public: true }),
    );
    const page = await get(app, "/u/lister");
    assert.equal(page.status, 200);
    assert.match(page.html, /Rainy Sunday/);
    assert.ok(!page.html.includes(user.email));
  });

  await t.step("/account carries the public profile settings", async () => {
    const page = await get(app, "/account", cookie);
    assert.ok(islandsOf(page.html).some((i) => i.name === "ProfileSettings"));
  });
});

Deno.test("website: signed in, the home page's and the search page's cards offer Add to list; signed out they do not", async () => {
  await using tmdb = await startFakeTmdb();
  await using app = await testApp({ env: tmdbEnv(tmdb) });
  const user = await createUser(app.deps);
  const cookie = { headers: { cookie: sessionCookie(user.token, user.email) } };
  for (const path of ["/", "/search?q=fight%20club"]) {
    const signedIn = await get(app, path, cookie);
    assert.equal(signedIn.status, 200);
    const doc = parseHtml(signedIn.html);
    // Every card, search's "Also found" films (no poster, date or rating, listed apart) too.
    const cards = [...doc.querySelectorAll("article.card")];
    assert.ok(cards.length > 1, path);
    if (path.startsWith("/search")) assert.ok(doc.querySelector(".unlisted article.card"), path);
    for (const card of cards) {
      const title = card.querySelector(".card-link")?.textContent;
      const button = card.querySelector(`button[aria-label="Add to list: ${title}"]`);
      assert.ok(button, `${path}: ${title}`);
    }
    const signedOut = await get(app, path);
    assert.doesNotMatch(signedOut.html, /Add to list/);
  }
  // On the home page each card's button is its own island; on search, LiveSearch's.
  const home = await get(app, "/", cookie);
  assert.ok(islandsOf(home.html).some((i) => i.name === "AddToList"));
  const search = await get(app, "/search?q=fight%20club", cookie);
  assert.equal(islandsOf(search.html).find((i) => i.name === "LiveSearch")?.props.signedIn, true);
});
