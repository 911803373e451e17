/**
 * A world for the history import tests (beside entries_world.ts, the list seeds of issue 14): the app against a fake TMDB whose search answers
 * from a small catalog (title words, optional year, as TMDB filters), a signed-in user, and
 * helpers to upload a file and wait for its run.
 */
import type { HistoryImportRun } from "@/lib/library/history/import/runs.ts";
import type { Clock } from "@/lib/core/clock.ts";
import { titleKey } from "@/lib/catalog/title_match.ts";
import type { Store } from "@/lib/platform/store/mod.ts";
import { type TestApp, testApp } from "./app.ts";
import { type FakeTmdb, startFakeTmdb, tmdbEnv } from "./fake_tmdb.ts";
import { SettlingClock } from "./sent_calls.ts";
import type { Engine } from "./store.ts";
import { createUser, type TestUser } from "./users.ts";

/** A movie the fake's search knows. */
export interface CatalogMovie {
  id: number;
  title: string;
  original_title?: string;
  release_date: string;
}

/** The fake's catalog: the sample files' movies, a remake, and a title two films share. */
export const CATALOG: CatalogMovie[] = [
  { id: 550, title: "Fight Club", release_date: "1999-10-15" },
  {
    id: 146,
    title: "Crouching Tiger, Hidden Dragon",
    original_title: "臥虎藏龍",
    release_date: "2000-07-07",
  },
  {
    id: 194,
    title: "Amélie",
    original_title: "Le Fabuleux Destin d'Amélie Poulain",
    release_date: "2001-04-25",
  },
  {
    id: 129,
    title: "Spirited Away",
    original_title: "千と千尋の神隠し",
    release_date: "2001-07-20",
  },
  { id: 949, title: "Heat", release_date: "1995-12-15" },
  { id: 12345, title: "Heat", release_date: "1986-03-14" },
  { id: 7001, title: "Twin Film", release_date: "2010-05-01" },
  { id: 7002, title: "Twin Film", release_date: "2010-09-01" },
  // Listed a year later on TMDB than in the file that names it (a festival year).
  { id: 7100, title: "Late Release", release_date: "2016-01-20" },
];

/** A TMDB list row for a catalog movie (with the poster, date and vote the search keeps). */
export function listRow(m: CatalogMovie): Record<string, unknown> {
  return {
    adult: false,
    id: m.id,
    title: m.title,
    original_title: m.original_title ?? m.title,
    poster_path: `/poster-${m.id}.jpg`,
    release_date: m.release_date,
    vote_average: 7.5,
    genre_ids: [18],
    overview: "",
    popularity: 10,
    vote_count: 100,
  };
}

/** Makes `fake` search `movies` like TMDB: every query word in the title, the year's releases. */
export function serveCatalog(fake: FakeTmdb, movies: CatalogMovie[] = CATALOG): void {
  fake.search = (query) => {
    const key = titleKey(query.get("query") ?? "");
    const year = query.get("year");
    const results = movies
      .filter((m) =>
        titleKey(m.title).includes(key) || titleKey(m.original_title ?? "").includes(key)
      )
      .filter((m) => !year || m.release_date.startsWith(year))
      .map(listRow);
    return { page: 1, results, total_pages: 1, total_results: results.length };
  };
}

/** The world of one test; `C` is its app's clock's type. */
interface HistoryWorld<C extends Clock = Clock> extends AsyncDisposable {
  t: TestApp<C>;
  fake: FakeTmdb;
  user: TestUser;
  /** Uploads `file` as the raw body (or multipart with `multipart: true`). */
  upload(
    file: Uint8Array | string,
    options?: { user?: TestUser; multipart?: boolean },
  ): Promise<Response>;
  /** Uploads, expects 202, waits for the run to end and returns it. */
  importFile(file: Uint8Array | string, user?: TestUser): Promise<HistoryImportRun>;
  /** The user's watched entries and My List, straight from the store. */
  lists(user?: TestUser): Promise<{ watched: Record<string, unknown>[]; myList: number[] }>;
  searches(): number;
}

/**
 * Builds a world; dispose it with `await using`. Its app's clock is the one passed in, or a
 * SettlingClock when none is.
 */
export async function historyWorld<C extends Clock = SettlingClock>(
  options: {
    engine?: Engine;
    clock?: C;
    latencyMs?: number;
    store?: Store;
    kv?: Deno.Kv;
    fetch?: typeof fetch;
    /** Environment variables on top of the fake's (HISTORY_READ_WORKERS=0: the in-thread read). */
    env?: Record<string, string>;
  } = {},
): Promise<HistoryWorld<C>> {
  const fake = await startFakeTmdb({ latencyMs: options.latencyMs ?? 0 });
  serveCatalog(fake);
  const t = await testApp({
    env: { ...tmdbEnv(fake), ...options.env },
    engine: options.engine,
    // Sleeps that settle (./sent_calls.ts): with FakeClock's instant sleep, an import's eight
    // searches each moved the shared clock on their own, one after another, so waits that
    // overlap in real time added up, and under load a 102-film run saw ten minutes pass in
    // four seconds and failed as if the window had stayed busy that long.
    clock: options.clock ?? new SettlingClock() as Clock as C,
    store: options.store,
    kv: options.kv,
    fetch: options.fetch,
  });
  const user = await createUser(t.deps);
  const upload: HistoryWorld<C>["upload"] = (file, o = {}) => {
    const headers = (o.user ?? user).headers;
    if (o.multipart) {
      const form = new FormData();
      const data = typeof file === "string" ? file : file as Uint8Array<ArrayBuffer>;
      form.set("file", new Blob([data]), "export.bin");
      return t.request("/api/import", { method: "POST", headers, body: form });
    }
    return t.request("/api/import", {
      method: "POST",
      headers: { ...headers, "content-type": "application/octet-stream" },
      body: typeof file === "string" ? file : file as Uint8Array<ArrayBuffer>,
    });
  };
  return {
    t,
    fake,
    user,
    upload,
    async importFile(file, who = user) {
      const res = await upload(file, { user: who });
      if (res.status !== 202) throw new Error(`upload: ${res.status} ${await res.text()}`);
      const { importId } = await res.json();
      await t.services.historyImport.idle();
      const run = await t.request(`/api/import/${importId}`, { headers: who.headers });
      return await run.json();
    },
    async lists(who = user) {
      const watched = await t.store.query<Record<string, unknown>>(
        `select catalog_id, rating, to_char(watched_on, 'YYYY-MM-DD') as watched_on, note
         from public.user_watched_movies where user_id = $1 order by catalog_id`,
        [who.id],
      );
      const [list] = await t.store.query<{ catalog_ids: number[] }>(
        `select catalog_ids from public.user_my_list where user_id = $1`,
        [who.id],
      );
      return {
        watched: watched.map((r) => ({ ...r, catalog_id: Number(r.catalog_id) })),
        myList: (list?.catalog_ids ?? []).map(Number),
      };
    },
    searches: () => fake.requests.filter((r) => r.path === "/search/movie").length,
    async [Symbol.asyncDispose]() {
      await t.services.historyImport.idle();
      await t[Symbol.asyncDispose]();
      await fake.close();
    },
  };
}
