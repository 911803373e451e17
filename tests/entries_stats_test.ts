import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { createEntriesService } from "../lib/library/entries/mod.ts";
import { testApp } from "./helpers/app.ts";
import { seedHistory } from "./helpers/entries_world.ts";
import { ENGINES } from "./helpers/store.ts";
import { createUser } from "./helpers/users.ts";

for (const engine of ENGINES) {
  Deno.test(`[${engine}] the watched stats count movies, known runtimes, this UTC year, the average rating and the top genres, in one query`, async () => {
    await using t = await testApp({
      engine,
      clock: new FakeClock(Date.parse("2024-12-31T23:30:00Z")),
    });
    const lists = createEntriesService(t.deps);
    const [watcher, saver, stranger] = [
      await createUser(t.deps),
      await createUser(t.deps),
      await createUser(t.deps),
    ];
    await seedHistory(t.store, { watcher: watcher.id, saver: saver.id });
    const before = t.store.stats.queries;
    const stats = await lists.stats(watcher.id);
    assert.equal(t.store.stats.queries - before, 1);
    assert.deepEqual(stats, {
      movies: 7,
      // The light row and the fallback card have no runtime.
      minutes: 122 + 117 + 157 + 132 + 90,
      // 2024-01-05 twice and 2024-06-01; the undated entry is not counted.
      thisYear: 3,
      rated: 5,
      averageRating: (9 + 4 + 7 + 9 + 2) / 5,
      topGenres: [
        { name: "Drama", count: 3 },
        { name: "Comedy", count: 2 },
        { name: "Science Fiction", count: 2 },
        { name: "Crime", count: 1 },
        { name: "Horror", count: 1 },
      ],
      // The light row and the fallback card still wait for their details.
      incomplete: 2,
    });
    // Another user's history is not theirs; an empty history is all zeros.
    assert.deepEqual(await lists.stats(stranger.id), {
      movies: 0,
      minutes: 0,
      thisYear: 0,
      rated: 0,
      averageRating: null,
      topGenres: [],
      incomplete: 0,
    });
  });
}
