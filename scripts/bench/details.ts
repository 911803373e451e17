/**
 * The details job (docs/catalog.md, "The details job") after a Letterboxd diary of 5,000 films
 * imported on the fake catalog, on the real clock against a fake TMDB answering in 50 ms: every
 * film is matched by title (stored from its search row, without details), the import's end asks
 * for a run, and the run fetches them at the default budget (5,000) and share (a quarter of the
 * 40/s window). Reported: how long from the import's end until GET /api/stats says `incomplete`
 * 0, against the floor the share allows (the ask's 10 s, then 5,000 calls at 10 a second), the
 * calls in each wall-clock second (target: at most 10, 25 % of the window, in every second), another user's searches meanwhile (5 a second: every one must answer 200), and the
 * figures before and after (hours, directors, actors).
 *
 * `DETAILS_BENCH_FILMS` changes the count; `--postgres` runs on TEST_DATABASE_URL's PostgreSQL.
 */
import { systemClock } from "@/lib/core/clock.ts";
import { WINDOW_LIMIT } from "@/lib/catalog/external_window.ts";
import { ASK_DELAY_MS } from "@/lib/catalog/details/mod.ts";
import { testApp } from "@/tests/helpers/app.ts";
import { detailBody, startFakeTmdb, tmdbEnv } from "@/tests/helpers/fake_tmdb.ts";
import { csvText } from "@/tests/helpers/history_files.ts";
import { type CatalogMovie, serveCatalog } from "@/tests/helpers/history_import_world.ts";
import { createUser } from "@/tests/helpers/users.ts";

const FILMS = Number(Deno.env.get("DETAILS_BENCH_FILMS") ?? 5000);
const LATENCY_MS = 50;
const QUARTER = WINDOW_LIMIT / 4;
const DIARY = [
  "Date",
  "Name",
  "Year",
  "Letterboxd URI",
  "Rating",
  "Rewatch",
  "Tags",
  "Watched Date",
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs the benchmark on the embedded store (or PostgreSQL with `--postgres`). */
export default async function bench(): Promise<void> {
  const engine = Deno.args.includes("--postgres") ? "postgres" : "embedded";
  await using fake = await startFakeTmdb({ latencyMs: LATENCY_MS });
  const films: CatalogMovie[] = Array.from({ length: FILMS }, (_, i) => ({
    id: 3_000_000 + i,
    title: `Bench Picture ${3_000_000 + i}`,
    release_date: `${1960 + (i % 60)}-06-01`,
  }));
  serveCatalog(fake, films);
  for (const f of films) {
    fake.movies.set(
      f.id,
      detailBody(f.id, { title: f.title, release_date: f.release_date, runtime: 90 + (f.id % 60) }),
    );
  }
  // Each detail call at the wall-clock millisecond the service sends it.
  const details: number[] = [];
  await using t = await testApp({
    record: false,
    clock: systemClock,
    engine,
    env: { ...tmdbEnv(fake), DETAILS_CRON: "*/10 * * * *" },
    fetch: (input, init) => {
      if (/\/movie\/\d+/.test(String(input))) details.push(Date.now());
      return fetch(input, init);
    },
  });
  const u = await createUser(t.deps);
  const other = await createUser(t.deps);
  const file = csvText(
    DIARY,
    films.map((f, i) => [
      "2024-01-01",
      f.title,
      Number(f.release_date.slice(0, 4)),
      `u${i}`,
      String(1 + (i % 5)),
      "",
      "",
      `2024-${String(1 + (i % 12)).padStart(2, "0")}-15`,
    ]),
  );
  const stats = async () => {
    const res = await t.request("/api/stats", { headers: u.headers });
    if (res.status !== 200) throw new Error(`GET /api/stats answered ${res.status}`);
    return await res.json();
  };

  const importStart = performance.now();
  const upload = await t.request("/api/import", {
    method: "POST",
    headers: { ...u.headers, "content-type": "text/csv" },
    body: file,
  });
  if (upload.status !== 202) throw new Error(`upload answered ${upload.status}`);
  await upload.body?.cancel();
  await t.services.historyImport.idle();
  const importEnd = performance.now();
  const before = await stats();
  console.log(
    `import (${engine}): ${FILMS} films matched by title in ${
      ((importEnd - importStart) / 1000).toFixed(1)
    } s; then films ${before.films}, hours ${before.hours}, directors ${before.directors.length}, ` +
      `actors ${before.actors.length}, incomplete ${before.incomplete}`,
  );

  // Another user searches 5 times a second while the job runs.
  const searches: number[] = [];
  let searching = true;
  const searcher = (async () => {
    for (let i = 0; searching; i++) {
      const res = await t.request(`/api/movies/search?q=bench+picture+${i % 100}`, {
        headers: other.headers,
      });
      searches.push(res.status);
      await res.body?.cancel();
      await sleep(200);
    }
  })();
  // The import's end asked for a run: poll the figure until nothing is left.
  let done = NaN;
  let last = before.incomplete;
  for (;;) {
    await sleep(1000);
    last = (await stats()).incomplete;
    if (last === 0) {
      done = performance.now();
      break;
    }
    if (performance.now() - importEnd > (FILMS / QUARTER) * 3000 + 120_000) break;
  }
  searching = false;
  await searcher;
  await t.services.details.settled();
  const after = await stats();
  const [run] = await t.services.details.runs();

  const perSecond = new Map<number, number>();
  for (const at of details) {
    const s = Math.floor(at / 1000);
    perSecond.set(s, (perSecond.get(s) ?? 0) + 1);
  }
  const counts = [...perSecond.values()];
  const full = counts.slice(1, -1); // the first and last seconds are partial
  const mean = full.reduce((a, b) => a + b, 0) / Math.max(1, full.length);
  const seconds = (done - importEnd) / 1000;
  // The ask's delay, then one call per film at a quarter of the window.
  const floor = ASK_DELAY_MS / 1000 + FILMS / QUARTER;
  const notOk = searches.filter((s) => s !== 200);
  console.log(
    `details (${engine}): incomplete ${before.incomplete} -> 0 in ${seconds.toFixed(1)} s after ` +
      `the import's end (floor: the ask's ${ASK_DELAY_MS / 1000} s, then a quarter of the window: ${
        floor.toFixed(0)
      } s; ratio ${
        (seconds / floor).toFixed(3)
      }); run ${run.trigger} ${run.status}, planned ${run.moviesPlanned}, refreshed ` +
      `${run.moviesRefreshed}, calls ${run.calls}, errors ${run.errors}`,
  );
  console.log(
    `details share: ${details.length} calls over ${counts.length} wall-clock seconds, max ${
      Math.max(...counts)
    } in a second = ${(Math.max(...counts) / WINDOW_LIMIT * 100).toFixed(1)} % of the window ` +
      `(target <= 25 %), mean ${mean.toFixed(2)} = ${(mean / WINDOW_LIMIT * 100).toFixed(1)} %; ` +
      `seconds over ${QUARTER}: ${counts.filter((c) => c > QUARTER).length}`,
  );
  console.log(
    `other user's searches meanwhile: ${searches.length}, answered 200: ${
      searches.length - notOk.length
    }${notOk.length ? ` (others: ${[...new Set(notOk)].join(", ")})` : ""}`,
  );
  console.log(
    `after: films ${after.films}, hours ${after.hours}, directors ${after.directors.length} ` +
      `(top ${after.directors[0]?.name} ${
        after.directors[0]?.count
      }), actors ${after.actors.length}, ` +
      `incomplete ${after.incomplete}${Number.isNaN(done) ? ` (gave up at ${last})` : ""}`,
  );
}
