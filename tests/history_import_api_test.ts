import assert from "node:assert/strict";
import { strToU8, zipSync } from "fflate";
import { historyWorld } from "./helpers/history_world.ts";
import {
  bytesOf,
  imdbRatingsCsv,
  jsonBytes,
  letterboxdZip,
  traktFiles,
} from "./helpers/history_files.ts";
import { createUser } from "./helpers/users.ts";
import { ENGINES } from "./helpers/store.ts";

async function assertProblem(res: Response, status: number, code: string) {
  assert.equal(res.status, status);
  assert.match(res.headers.get("content-type") ?? "", /^application\/problem\+json/);
  assert.equal((await res.json()).code, code);
}

const REVIEW = 'Not for me, "whimsy" overload.\nSecond line.';

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a Letterboxd export ZIP fills the lists: the latest diary date, the latest rating doubled, the review as note, the watchlist to My List, the unmatched reported`, async () => {
    await using w = await historyWorld({ engine });
    const run = await w.importFile(letterboxdZip());
    assert.equal(run.status, "succeeded");
    assert.equal(run.format, "letterboxd");
    assert.equal(run.progress, 1);
    assert.deepEqual(run.counts, {
      rows: 12,
      matched: 11,
      added: 4,
      updated: 0,
      skipped: 1,
      unmatched: 1,
    });
    assert.deepEqual(run.unmatched, [{ title: "Unknown Film", year: null, reason: "not_found" }]);
    assert.deepEqual(await w.lists(), {
      watched: [
        { catalog_id: 146, rating: 6, watched_on: "2024-02-10", note: null },
        { catalog_id: 194, rating: 1, watched_on: "2024-03-01", note: REVIEW },
        { catalog_id: 550, rating: 10, watched_on: "2024-06-19", note: null },
      ],
      myList: [129],
    });
    // The cards hydrate from the search rows the matches came from.
    const cards = await (await w.t.request("/api/mylist", { headers: w.user.headers })).json();
    assert.equal(cards.movies[0].title, "Spirited Away");
  });

  Deno.test(`[${engine}] importing the same file twice changes nothing the second time`, async () => {
    await using w = await historyWorld({ engine });
    await w.importFile(letterboxdZip());
    const before = await w.lists();
    const again = await w.importFile(letterboxdZip());
    assert.equal(again.status, "succeeded");
    assert.deepEqual(again.counts, {
      rows: 12,
      matched: 11,
      added: 0,
      updated: 0,
      skipped: 1,
      unmatched: 1,
    });
    assert.deepEqual(await w.lists(), before);
  });
}
