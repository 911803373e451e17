/**
 * A Trakt client moving in (docs/trakt.md, "Reads"; issue 45): a 10,000-film history synced in
 * through `POST /trakt/sync/history` in batches of 1,000 (target: under a minute on the embedded
 * store), read back through `GET /trakt/sync/watched/movies` (target: at most 1.5x the unpaged
 * `GET /api/watched` of the same user, medians of alternating rounds) and the history paginated
 * by 1,000; and a scrobble's cost (start, then stop at 90 %) against a cached detail read
 * (`GET /api/movies/:id`) in the same run. `TRAKT_BENCH_ENGINE=postgres` (with TEST_DATABASE_URL)
 * runs it on PostgreSQL.
 */
import { detailBody, startFakeTmdb, tmdbEnv } from "@/tests/helpers/fake_tmdb.ts";
import { testApp } from "@/tests/helpers/app.ts";
import { createUser } from "@/tests/helpers/users.ts";

const FILMS = 10_000;
const BATCH = 1_000;
const ROUNDS = 15;
const ENGINE = Deno.env.get("TRAKT_BENCH_ENGINE") === "postgres" ? "postgres" : "embedded";
const KEY = { "trakt-api-key": "bench", "trakt-api-version": "2" };

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timed(f: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await f();
  return performance.now() - start;
}

async function ok(response: Response, what: string, status = 200): Promise<string> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`${what} answered ${response.status}: ${text}`);
  return text;
}

/** Prints the sync's time, the reads' medians and ratio, and the scrobble against the detail. */
export default async function bench(): Promise<void> {
  const tmdb = await startFakeTmdb();
  try {
    await using t = await testApp({ record: false, engine: ENGINE, env: tmdbEnv(tmdb) });
    const u = await createUser(t.deps);
    const made = JSON.parse(
      await ok(
        await t.request("/api/tokens", {
          method: "POST",
          headers: { ...u.headers, "content-type": "application/json" },
          body: JSON.stringify({ name: "bench", scope: "write" }),
        }),
        "POST /api/tokens",
        201,
      ),
    );
    const trakt = { ...KEY, authorization: `Bearer ${made.token}` };
    // The films are stored (a client's history names films the catalog knows), so the sync
    // measures this service, not the fake TMDB's answers through the shared window.
    await t.store.query(
      `insert into public.movies (catalog_id, title, year, release_date, genres, runtime)
       select g, 'Film ' || g, 1950 + g % 70, make_date(1950 + g % 70, 1 + g % 12, 1 + g % 28),
              '{Drama}', 90 + g % 60
         from generate_series(1, $1::int) g on conflict do nothing`,
      [FILMS],
    );

    const start = performance.now();
    for (let first = 1; first <= FILMS; first += BATCH) {
      const movies = Array.from({ length: BATCH }, (_, i) => ({
        watched_at: new Date(Date.UTC(2020, 0, 1) + (first + i) * 3_600_000).toISOString(),
        ids: { tmdb: first + i },
      }));
      await ok(
        await t.request("/trakt/sync/history", {
          method: "POST",
          headers: { ...trakt, "content-type": "application/json" },
          body: JSON.stringify({ movies, shows: [], episodes: [] }),
        }),
        "POST /trakt/sync/history",
        201,
      );
      // A client keeps to one write a second; the app's clock is the one its limit reads.
      t.clock.advance(1_000);
    }
    const sync = performance.now() - start;

    const read = (path: string, headers: Record<string, string>) => async () => {
      await ok(await t.request(path, { headers }), `GET ${path}`);
    };
    const watched = read("/trakt/sync/watched/movies", trakt);
    const api = read("/api/watched", u.headers);
    const first = JSON.parse(
      await ok(await t.request("/trakt/sync/watched/movies", { headers: trakt }), "watched"),
    );
    if (first.length !== FILMS) throw new Error(`sync/watched answered ${first.length} films`);
    const ws: number[] = [];
    const as: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      ws.push(await timed(watched));
      as.push(await timed(api));
    }
    const historyAll = await timed(async () => {
      for (let page = 1; page <= FILMS / BATCH; page++) {
        await read(`/trakt/sync/history/movies?page=${page}&limit=${BATCH}`, trakt)();
      }
    });

    tmdb.movies.set(FILMS + 1, detailBody(FILMS + 1, { title: "Scrobbled", runtime: 100 }));
    const detail = read(`/api/movies/${FILMS + 1}`, {});
    await detail();
    const scrobbles: number[] = [];
    const details: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const movie = { ids: { tmdb: i + 1 } };
      scrobbles.push(
        await timed(async () => {
          for (const [call, progress] of [["start", 5], ["stop", 90]] as const) {
            await ok(
              await t.request(`/trakt/scrobble/${call}`, {
                method: "POST",
                headers: { ...trakt, "content-type": "application/json" },
                body: JSON.stringify({ movie, progress }),
              }),
              `POST /trakt/scrobble/${call}`,
              201,
            );
          }
        }),
      );
      t.clock.advance(10_000);
      details.push(await timed(detail));
    }

    const w = median(ws);
    const a = median(as);
    console.log(
      `${ENGINE}: sync ${FILMS.toLocaleString("en")} films in batches of ${
        BATCH.toLocaleString("en")
      }: ` +
        `${(sync / 1000).toFixed(1)} s (target < 60 s)`,
    );
    console.log(
      `GET /trakt/sync/watched/movies ${w.toFixed(1)} ms, GET /api/watched ${a.toFixed(1)} ms ` +
        `(unpaged, ${FILMS.toLocaleString("en")} films): ${(w / a).toFixed(2)}x (target <= 1.5x)`,
    );
    console.log(
      `GET /trakt/sync/history/movies, ${FILMS / BATCH} pages of ${BATCH}: ${
        historyAll.toFixed(0)
      } ms`,
    );
    const s = median(scrobbles);
    const d = median(details);
    console.log(
      `scrobble start + stop ${s.toFixed(1)} ms, cached GET /api/movies/:id ${d.toFixed(2)} ms: ` +
        `${(s / d).toFixed(1)}x`,
    );
  } finally {
    await tmdb.close();
  }
}
