import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { testApp } from "./helpers/app.ts";
import {
  detailBody,
  startFakeTmdb,
  tmdbEnv,
  WATCH_PROVIDERS_FIXTURE,
} from "./helpers/fake_tmdb.ts";

const DAY = 86_400_000;
const FIGHT_CLUB = 550;
const IMAGES = "https://image.tmdb.org/t/p";

function detailCalls(fake: { requests: { path: string }[] }): number {
  return fake.requests.filter((r) => /^\/movie\/\d+$/.test(r.path)).length;
}

async function getJson(t: { request(path: string): Promise<Response> }, path: string) {
  const res = await t.request(path);
  return { status: res.status, headers: res.headers, body: await res.json() };
}

interface Offer {
  provider_name: string;
  logo_path: string;
  display_priority: number;
}

// The fixture's region `code` as the route should answer it, derived independently.
function expected(code: string) {
  const results = WATCH_PROVIDERS_FIXTURE.results as Record<
    string,
    Record<string, Offer[] | string>
  >;
  const region = results[code] ?? {};
  const list = (kind: string) =>
    [...((region[kind] as Offer[] | undefined) ?? [])]
      .sort((a, b) => a.display_priority - b.display_priority)
      .map((p) => ({ name: p.provider_name, logo: `${IMAGES}/w92${p.logo_path}` }));
  return {
    id: FIGHT_CLUB,
    region: code,
    link: (region.link as string | undefined) ?? null,
    flatrate: list("flatrate"),
    rent: list("rent"),
    buy: list("buy"),
    free: list("free"),
    ads: list("ads"),
  };
}

Deno.test("GET /api/movies/:id/providers parses TMDB's watch/providers from the detail fetch", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const res = await getJson(t, `/api/movies/${FIGHT_CLUB}/providers?region=US`);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, expected("US"));
  assert.equal(res.body.link, "https://www.themoviedb.org/movie/550-fight-club/watch?locale=US");
  assert.equal(res.body.flatrate[0].name, "fuboTV");
  assert.equal(res.body.flatrate[0].logo, `${IMAGES}/w92/jPXksae158ukMLFhhlNvzsvaEyt.jpg`);
  assert.equal(res.body.rent[0].name, "Amazon Video");
  assert.deepEqual(res.body.free, []);
  // One movie-by-id call carried everything: details, credits, videos and providers.
  assert.equal(fake.requests.length, 1);
  assert.equal(fake.requests[0].path, `/movie/${FIGHT_CLUB}`);
  assert.equal(
    fake.requests[0].query.get("append_to_response"),
    "credits,videos,watch/providers,release_dates,keywords,external_ids",
  );
  assert.equal(res.headers.get("x-ratelimit-limit"), "40");
  assert.equal(res.headers.get("x-ratelimit-remaining"), "39");
  // Stored with the movie: other regions answer without a call, the detail too.
  const es = await getJson(t, `/api/movies/${FIGHT_CLUB}/providers?region=es`);
  assert.deepEqual(es.body, expected("ES"));
  assert.ok(es.body.ads.length > 0, "the ES region has ad-supported offers");
  assert.equal((await getJson(t, `/api/movies/${FIGHT_CLUB}`)).status, 200);
  assert.equal(fake.requests.length, 1);
  const [row] = await t.store.query<{ regions: number }>(
    `select (select count(*) from jsonb_object_keys(watch_providers))::int as regions
       from public.movies where catalog_id = $1`,
    [FIGHT_CLUB],
  );
  assert.equal(Number(row.regions), Object.keys(WATCH_PROVIDERS_FIXTURE.results).length);
});

Deno.test("GET /api/movies/:id/providers defaults to WATCH_REGION, itself US by default", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  assert.deepEqual((await getJson(t, `/api/movies/${FIGHT_CLUB}/providers`)).body, expected("US"));
  await using de = await testApp({ env: { ...tmdbEnv(fake), WATCH_REGION: "de" } });
  assert.deepEqual((await getJson(de, `/api/movies/${FIGHT_CLUB}/providers`)).body, expected("DE"));
});

Deno.test("a region with no data answers empty lists and a null link", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const res = await getJson(t, `/api/movies/${FIGHT_CLUB}/providers?region=ZW`);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, {
    id: FIGHT_CLUB,
    region: "ZW",
    link: null,
    flatrate: [],
    rent: [],
    buy: [],
    free: [],
    ads: [],
  });
});

Deno.test("a region that is not ISO 3166-1 alpha-2 answers 400 invalid_region with the window headers", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  for (const region of ["XX", "USA", "U", "1A", "", "u%20s"]) {
    const res = await getJson(t, `/api/movies/${FIGHT_CLUB}/providers?region=${region}`);
    assert.equal(res.status, 400, region);
    assert.equal(res.body.code, "invalid_region");
    assert.equal(res.headers.get("x-ratelimit-limit"), "40");
  }
  const bad = await getJson(t, `/api/movies/0/providers`);
  assert.equal(bad.body.code, "invalid_catalog_id");
  assert.equal(fake.requests.length, 0);
});

Deno.test("a movie TMDB does not have answers 404 movie_not_found", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const res = await getJson(t, `/api/movies/999999/providers`);
  assert.equal(res.status, 404);
  assert.equal(res.body.code, "movie_not_found");
});

Deno.test("provider data older than 7 days is fetched again through the window; on failure the stored data is served", async () => {
  const clock = new FakeClock();
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake), clock });
  await getJson(t, `/api/movies/${FIGHT_CLUB}/providers?region=US`);
  assert.equal(detailCalls(fake), 1);

  clock.advance(6 * DAY);
  await getJson(t, `/api/movies/${FIGHT_CLUB}/providers?region=US`);
  assert.equal(detailCalls(fake), 1, "6 days old is still served");

  // TMDB now lists one new offer for the US.
  fake.movies.set(
    FIGHT_CLUB,
    detailBody(FIGHT_CLUB, {
      "watch/providers": {
        results: {
          US: {
            link: "https://www.themoviedb.org/movie/550-fight-club/watch?locale=US",
            free: [{
              logo_path: "/free.jpg",
              provider_id: 1,
              provider_name: "Free Films",
              display_priority: 1,
            }],
          },
        },
      },
    }),
  );
  clock.advance(1 * DAY + 1);
  const refreshed = await getJson(t, `/api/movies/${FIGHT_CLUB}/providers?region=US`);
  assert.equal(detailCalls(fake), 2);
  assert.deepEqual(refreshed.body.free, [{ name: "Free Films", logo: `${IMAGES}/w92/free.jpg` }]);
  assert.deepEqual(refreshed.body.flatrate, []);
  assert.equal(refreshed.headers.get("x-ratelimit-remaining"), "39");

  // A week later TMDB fails: the week-old data is served, and the failure is logged.
  clock.advance(8 * DAY);
  fake.override = () => Response.json({ status_code: 11 }, { status: 500 });
  const stale = await getJson(t, `/api/movies/${FIGHT_CLUB}/providers?region=US`);
  assert.equal(stale.status, 200);
  assert.deepEqual(stale.body.free, [{ name: "Free Films", logo: `${IMAGES}/w92/free.jpg` }]);
  assert.equal(detailCalls(fake), 3);
  assert.ok(t.logs.some((l) => String(l.msg).includes("watch providers refresh failed")));
});

Deno.test("with nothing stored and TMDB failing, the providers route answers the error", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  fake.override = () => Response.json({ status_code: 11 }, { status: 500 });
  const res = await getJson(t, `/api/movies/${FIGHT_CLUB}/providers`);
  assert.equal(res.status, 500);
  assert.equal(res.body.code, "upstream_error");
});
