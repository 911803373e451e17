import assert from "node:assert/strict";
import {
  DETAIL_TTL_MS,
  freshIds,
  isFreshComplete,
  missingIds,
  readMovie,
  upsertDetail,
  upsertLight,
} from "../lib/catalog/movies_store.ts";
import { detailRow, lightRow } from "../lib/catalog/normalize.ts";
import { tmdbListRow, tmdbMovie } from "../lib/catalog/tmdb_schemas.ts";
import { DETAIL_APPENDS } from "../lib/catalog/tmdb_client.ts";
import { detailBody, POPULAR_FIXTURE_ROWS } from "./helpers/fake_tmdb.ts";
import { ENGINES, testStore } from "./helpers/store.ts";

const NOW = Date.parse("2026-11-22T12:00:00.000Z");

// Ids of their own, so the suite can share a PostgreSQL database with other suites.
function freshId(): number {
  return 1_500_000_000 + Math.floor(Math.random() * 500_000_000);
}

for (const engine of ENGINES) {
  Deno.test(`[${engine}] missingIds names the ids with no stored row, in the order asked, past one lookup's piece`, async () => {
    await using store = await testStore(engine);
    const base = freshId();
    // 2,500 ids: two lookup pieces; every third one stored.
    const ids = Array.from({ length: 2_500 }, (_, i) => base + 2_499 - i);
    const stored = ids.filter((_, i) => i % 3 === 0);
    await upsertLight(
      store,
      stored.map((id) => lightRow(tmdbListRow.parse({ ...POPULAR_FIXTURE_ROWS[0], id }))),
      { now: NOW },
    );
    assert.deepEqual(await missingIds(store, ids), ids.filter((_, i) => i % 3 !== 0));
  });

  Deno.test(`[${engine}] a detail row round-trips through the movies table`, async () => {
    await using store = await testStore(engine);
    const id = freshId();
    const detail = detailRow(tmdbMovie.parse(detailBody(id)), NOW);
    await upsertDetail(store, detail);
    const read = await readMovie(store, id);
    // The appends beyond credits and videos are stored beside it and not read with the row.
    const {
      details_appends,
      release_dates,
      keywords,
      imdb_id,
      collection_id,
      collection_name,
      original_language,
      ...row
    } = detail;
    assert.deepEqual(read, row);
    const [extra] = await store.query(
      `select details_appends, release_dates, keywords, imdb_id, collection_id, collection_name,
              original_language
         from public.movies where catalog_id = $1`,
      [id],
    );
    const json = (v: unknown) => typeof v === "string" ? JSON.parse(v) : v;
    assert.deepEqual({ ...extra, release_dates: json(extra.release_dates) }, {
      details_appends,
      release_dates,
      keywords,
      imdb_id,
      collection_id,
      collection_name,
      original_language,
    });
    assert.equal(original_language, "en");
    // The local recommender's collection (docs/recommend.md, "Local picks").
    const inCollection = freshId();
    await upsertDetail(
      store,
      detailRow(
        tmdbMovie.parse({
          ...detailBody(inCollection),
          belongs_to_collection: { id: 10, name: "Star Wars Collection", poster_path: null },
        }),
        NOW,
      ),
    );
    const [collection] = await store.query(
      `select collection_id, collection_name from public.movies where catalog_id = $1`,
      [inCollection],
    );
    assert.deepEqual(collection, { collection_id: 10, collection_name: "Star Wars Collection" });
    assert.equal(details_appends, DETAIL_APPENDS);
    assert.equal(imdb_id, "tt1659337");
    assert.equal(keywords?.[0], "based on novel or book");
    assert.deepEqual(release_dates?.US, [
      { type: 1, date: "1999-09-21", certification: "", note: "CMJ Film Festival" },
      { type: 1, date: "1999-10-06", certification: "", note: "Westwood, California (Premiere)" },
      { type: 3, date: "1999-10-15", certification: "R", note: "" },
    ]);
    assert.equal(isFreshComplete(read!, NOW + DETAIL_TTL_MS - 1), true);
    assert.equal(isFreshComplete(read!, NOW + DETAIL_TTL_MS), false);
    assert.equal(await readMovie(store, freshId()), null);
  });

  Deno.test(`[${engine}] light rows insert, and never erase a complete row's details`, async () => {
    await using store = await testStore(engine);
    const [complete, light] = [freshId(), freshId()];
    const fetched = detailRow(tmdbMovie.parse(detailBody(complete)), NOW);
    await upsertDetail(store, fetched);
    const {
      details_appends: _a,
      release_dates: _r,
      keywords: _k,
      imdb_id: _i,
      collection_id: _c,
      collection_name: _n,
      original_language: _l,
      ...detail
    } = fetched;
    const listed = (id: number, overrides: Record<string, unknown> = {}) =>
      lightRow(tmdbListRow.parse({ ...POPULAR_FIXTURE_ROWS[0], id, ...overrides }));
    await upsertLight(store, [
      listed(complete, { poster_path: null, release_date: "", vote_average: 9.9, title: "New" }),
      listed(light),
      listed(light, { title: "Later row wins" }),
    ], { now: NOW + 1000 });

    const after = await readMovie(store, complete);
    // The list fields are refreshed; every detail field, the poster and the date are kept.
    assert.equal(after?.title, "New");
    assert.equal(after?.vote_average, 9.9);
    assert.deepEqual({
      ...after,
      title: detail.title,
      original_title: detail.original_title,
      vote_average: detail.vote_average,
      vote_count: detail.vote_count,
      popularity: detail.popularity,
    }, detail);
    const added = await readMovie(store, light);
    assert.equal(added?.title, "Later row wins");
    assert.equal(added?.has_details, false);
    assert.deepEqual(added?.genres, ["Action", "Adventure", "Science Fiction"]);
    assert.equal(added?.runtime, null);
    assert.equal(added?.release_date, "2023-02-15");

    assert.deepEqual(
      [...await freshIds(store, [complete, light, freshId()], { now: NOW })],
      [complete],
    );
    assert.deepEqual([...await freshIds(store, [complete], { now: NOW + DETAIL_TTL_MS })], []);
  });
}
