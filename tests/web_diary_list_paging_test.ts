/**
 * The diary and a user's own lists page by 60 on the website, as the watched page does
 * (docs/website.md): at 10,000 entries or items a page renders 60 and stays under 250 KB, the
 * 61st is on `?page=2`, the count is the whole diary's or list's (from SQL), and "More"'s API
 * read gives exactly what the next page renders; the shared page /s/:slug pages the same way.
 */
import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import type { Store } from "../lib/platform/store/mod.ts";
import { testApp } from "./helpers/app.ts";
import { parseHtml, textOf } from "./helpers/dom.ts";
import { ENGINES } from "./helpers/store.ts";
import { json, makeList } from "./helpers/lists.ts";
import { createUser } from "./helpers/users.ts";
import { get, islandsOf, sessionCookie } from "./helpers/web.ts";

const N = 10_000;

// Catalog ids of the test's own, apart from other tests' movies in a shared PostgreSQL.
const BASE = 1_700_000_000;

// N movies, all watched, each with one viewing a day apart (the newest is movie N), and a list
// holding all N in catalog order. Seeded by SQL: the API would add them one by one, and a
// list's own cap (5,000) would stop it, while the pages must hold at any size. In batches of
// 500, each statement well inside the store's deadline on a busy machine (the diary keeps its
// stats by triggers, so a viewing costs more to write than a row).
async function seed(store: Store, key: { userId: string; listId: string }) {
  for (let from = 1; from <= N; from += 500) {
    const to = Math.min(N, from + 499);
    const g = `generate_series(${from}, ${to}) g`;
    await store.query(
      `insert into public.movies (catalog_id, title, original_title, year, runtime, genres,
         poster_path, has_details)
       select ${BASE} + g, 'Film ' || lpad(g::text, 5, '0'), 'Film ' || g, 1950 + g % 70, 90,
         array['Drama'], '/p' || g || '.jpg', true
         from ${g}
       on conflict (catalog_id) do nothing`,
    );
    await store.query(
      `insert into public.user_watched_movies (user_id, catalog_id, created_at, watched_on)
       select $1::uuid, ${BASE} + g, timestamptz '2000-01-01' + g * interval '1 minute',
         date '1990-01-01' + g
         from ${g}`,
      [key.userId],
    );
    await store.query(
      `insert into public.user_viewings (user_id, catalog_id, watched_on, rating, source,
         created_at)
       select $1::uuid, ${BASE} + g, date '1990-01-01' + g, 1 + g % 10, 'import',
         timestamptz '2000-01-01' + g * interval '1 minute'
         from ${g}`,
      [key.userId],
    );
    await store.query(
      `insert into public.user_list_items (list_id, catalog_id, position)
       select $1::uuid, ${BASE} + g, g from ${g}`,
      [key.listId],
    );
  }
}

// Catalog ids of movies `from` to `to` (either way round).
const range = (from: number, to: number) =>
  Array.from(
    { length: Math.abs(to - from) + 1 },
    (_, i) => BASE + (from < to ? from + i : from - i),
  );

const bytes = (html: string) => new TextEncoder().encode(html).length;

const moreLink = (html: string) =>
  parseHtml(html).querySelector(".list-more a")?.getAttribute("href") ?? null;

for (const engine of ENGINES) {
  Deno.test(`[${engine}] website: the diary, a list and its shared page render 60 a page at ${N} and More reads the next`, async (t) => {
    await using app = await testApp({ engine, clock: new FakeClock("2026-06-01T12:00:00Z") });
    const user = await createUser(app.deps);
    const listId = await makeList(app, user, { name: "Everything", ranked: true });
    await seed(app.store, { userId: user.id, listId });
    const cookie = { headers: { cookie: sessionCookie(user.token, user.email) } };
    const page = async (path: string, island: string, init: RequestInit = cookie) => {
      const { status, html } = await get(app, path, init);
      assert.equal(status, 200, path);
      const found = islandsOf(html).find((i) => i.name === island);
      return { html, props: found?.props ?? {} };
    };
    const api = async (path: string, init: RequestInit = { headers: user.headers }) => {
      const res = await app.request(path, init);
      const body = await res.json();
      assert.equal(res.status, 200, JSON.stringify(body));
      return body;
    };
    type Entry = { id: string; catalogId: number };
    const diaryIds = (props: Record<string, unknown>) =>
      (props.entries as Entry[] | undefined ?? []).map((e) => e.catalogId);

    await t.step("/diary: the newest 60 of 10,000, counted in SQL, under 250 KB", async () => {
      const { html, props } = await page("/diary", "DiaryList");
      assert.deepEqual(diaryIds(props), range(N, N - 59));
      assert.equal(parseHtml(html).querySelectorAll(".diary-entry").length, 60);
      assert.match(textOf(html), /Entries 1–60 of 10,000/);
      assert.equal(moreLink(html), "/diary?page=2");
      assert.ok(bytes(html) < 250_000, `${bytes(html)} bytes`);
    });

    await t.step(
      "/diary?page=2 starts at the 61st; More's API read appends exactly it",
      async () => {
        const first = await page("/diary", "DiaryList");
        const more = first.props.more as { href: string; api: string };
        assert.equal(more.href, "/diary?page=2");
        const read = await api(more.api);
        const second = await page("/diary?page=2", "DiaryList");
        assert.deepEqual(diaryIds(second.props), range(N - 60, N - 119));
        assert.deepEqual(read.entries.map((e: Entry) => e.catalogId), diaryIds(second.props));
        assert.match(textOf(second.html), /Entries 61–120 of 10,000/);
        assert.ok(parseHtml(second.html).querySelector('a[href="/diary"]'), "back to page 1");
      },
    );

    await t.step(
      "/diary: the last page has no More; past it and bad pages are handled",
      async () => {
        const last = await page("/diary?page=167", "DiaryList");
        assert.deepEqual(diaryIds(last.props), range(40, 1));
        assert.equal(moreLink(last.html), null);
        assert.match(textOf(last.html), /Entries 9,961–10,000 of 10,000/);
        const past = await page("/diary?page=400", "DiaryList");
        assert.deepEqual(diaryIds(past.props), []);
        assert.match(textOf(past.html), /No entries on page 400 \(10,000 in all\)/);
        for (const bad of ["0", "-1", "x", "1.5"]) {
          const { props } = await page(`/diary?page=${bad}`, "DiaryList");
          assert.deepEqual(diaryIds(props), range(N, N - 59), bad);
        }
      },
    );

    await t.step("/diary: 60 longest notes, quotes and emoji, stay under 250 KB", async () => {
      // 1,998 characters each, every one escaped twice over (the text and the island's props).
      await app.store.query(
        `update public.user_viewings set note = repeat('"é😀', 666)
          where user_id = $1::uuid and catalog_id > ${BASE + N - 60}`,
        [user.id],
      );
      const { html, props } = await page("/diary", "DiaryList");
      assert.ok(bytes(html) < 250_000, `${bytes(html)} bytes`);
      const [first] = props.entries as { id: string; note: string; noteCut?: boolean }[];
      assert.equal(first.noteCut, true);
      assert.equal([...first.note].length, 201);
      assert.ok(first.note.endsWith("…"));
      // The whole note is there to edit.
      const whole = await api(`/api/diary/${first.id}`);
      assert.equal(whole.entry.note, '"é😀'.repeat(666));
    });

    type Item = { catalogId: number; position: number };
    const itemIds = (props: Record<string, unknown>, key = "items") =>
      (props[key] as Item[] | undefined ?? []).map((m) => m.catalogId);

    await t.step("/lists/:id: 60 of 10,000, More to page 2, under 250 KB", async () => {
      const { html, props } = await page(`/lists/${listId}`, "ListEditor");
      assert.deepEqual(itemIds(props), range(1, 60));
      assert.equal(parseHtml(html).querySelectorAll(".list-item").length, 60);
      assert.match(textOf(html), /Movies 1–60 of 10,000/);
      assert.equal(moreLink(html), `/lists/${listId}?page=2`);
      assert.ok(bytes(html) < 250_000, `${bytes(html)} bytes`);
      const more = props.more as { href: string; api: string };
      const read = await api(more.api);
      const second = await page(`/lists/${listId}?page=2`, "ListEditor");
      assert.deepEqual(itemIds(second.props), range(61, 120));
      assert.deepEqual(read.movies.map((m: Item) => m.catalogId), range(61, 120));
      const last = await page(`/lists/${listId}?page=167`, "ListEditor");
      assert.deepEqual(itemIds(last.props), range(9961, 10_000));
      assert.equal(moreLink(last.html), null);
    });

    await t.step("/s/:slug: the shared page pages the same way, signed out", async () => {
      const shared = await api(`/api/lists/${listId}/share`, json(user, "POST"));
      const path = new URL(shared.shareUrl).pathname;
      const { html, props } = await page(path, "SharedGrid", {});
      assert.deepEqual(itemIds(props, "movies"), range(1, 60));
      assert.equal(parseHtml(html).querySelectorAll(".shared-grid .card").length, 60);
      assert.match(textOf(html), /Movies 1–60 of 10,000/);
      assert.equal(moreLink(html), `${path}?page=2`);
      assert.ok(bytes(html) < 250_000, `${bytes(html)} bytes`);
      const more = props.more as { href: string; api: string };
      const read = await api(more.api, {});
      assert.deepEqual(read.movies.map((m: Item) => m.catalogId), range(61, 120));
      const second = await page(`${path}?page=2`, "SharedGrid", {});
      assert.deepEqual(itemIds(second.props, "movies"), range(61, 120));
      assert.match(textOf(second.html), /61\. Film 00061/);
    });
  });
}
