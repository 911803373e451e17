/**
 * The detail's extra appends as stored (docs/catalog.md, "The details job"): release dates per
 * region and type, keywords and the IMDb id, read entry by entry so an odd entry is skipped
 * rather than costing the film its details.
 */
import assert from "node:assert/strict";
import { detailRow } from "@/lib/catalog/normalize.ts";
import { imdbIdOf, keywordsOf, releasesOf } from "@/lib/catalog/release_dates.ts";
import { DETAIL_APPENDS } from "@/lib/catalog/tmdb_client.ts";
import { tmdbMovie } from "@/lib/catalog/tmdb_schemas.ts";
import { detailBody } from "./helpers/fake_tmdb.ts";

const date = (day: string, type: number, extra: Record<string, unknown> = {}) => ({
  certification: "",
  descriptors: [],
  iso_639_1: "",
  note: "",
  release_date: `${day}T00:00:00.000Z`,
  type,
  ...extra,
});

Deno.test("release dates are kept per region, sorted by type then date; odd entries are skipped, not the film", () => {
  const movie = tmdbMovie.parse(detailBody(7, {
    release_dates: {
      results: [
        {
          iso_3166_1: "DE",
          release_dates: [
            date("2024-05-02", 4),
            date("2024-01-10", 3, { certification: "12", note: "Berlin" }),
            date("2023-12-01", 3),
            date("2024-07-01", 7), // no such type
            { type: 5 }, // no date
            "not an entry",
          ],
        },
        { iso_3166_1: "de", release_dates: [date("2024-01-01", 3)] }, // not a region code
        { iso_3166_1: "FR", release_dates: [date("2024-02-02", 9)] }, // nothing left: no region
        null,
      ],
    },
  }));
  assert.deepEqual(releasesOf(movie), {
    DE: [
      { type: 3, date: "2023-12-01", certification: "", note: "" },
      { type: 3, date: "2024-01-10", certification: "12", note: "Berlin" },
      { type: 4, date: "2024-05-02", certification: "", note: "" },
    ],
  });
});

Deno.test("keywords are names once each; the IMDb id is tt and digits, else null", () => {
  const movie = tmdbMovie.parse(detailBody(7, {
    keywords: {
      keywords: [{ id: 1, name: "heist" }, { id: 2, name: "heist" }, { id: 3 }, {
        id: 4,
        name: " ",
      }, { id: 5, name: "noir" }],
    },
    external_ids: { imdb_id: "tt0113277" },
  }));
  assert.deepEqual(keywordsOf(movie), ["heist", "noir"]);
  assert.equal(imdbIdOf(movie), "tt0113277");
  for (const imdb_id of [null, "", "nm0000123", "tt", "tt12x"]) {
    assert.equal(imdbIdOf(tmdbMovie.parse(detailBody(7, { external_ids: { imdb_id } }))), null);
  }
});

Deno.test("a detail without the appends, or with malformed ones, still parses; the row records the append set it was fetched with", () => {
  const bare = detailBody(7);
  delete bare.release_dates;
  delete bare.keywords;
  delete bare.external_ids;
  const row = detailRow(tmdbMovie.parse(bare), 0);
  assert.deepEqual(
    [row.release_dates, row.keywords, row.imdb_id, row.details_appends],
    [null, null, null, DETAIL_APPENDS],
  );
  const odd = tmdbMovie.parse(
    detailBody(7, { release_dates: "soon", keywords: [1, 2], external_ids: 5 }),
  );
  assert.deepEqual([releasesOf(odd), keywordsOf(odd), imdbIdOf(odd)], [null, null, null]);
});
