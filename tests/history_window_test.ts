import assert from "node:assert/strict";
import { FakeClock } from "../lib/core/clock.ts";
import { BACKGROUND_SHARE, WINDOW_LIMIT, WINDOW_MS } from "../lib/catalog/external_window.ts";
import { bytesOf, csvText } from "./helpers/history_files.ts";
import { type CatalogMovie, historyWorld, serveCatalog } from "./helpers/history_import_world.ts";

/**
 * A fake clock whose sleeps move time only in a task of their own, after every call whose
 * place was already taken has been sent: FakeClock moves it at once, inside the microtasks
 * between another call's place and its fetch, which would stamp that call a window late.
 */
class TaskStepClock extends FakeClock {
  override sleep(ms: number): Promise<void> {
    const until = this.now() + Math.max(0, ms);
    return new Promise((resolve) =>
      setTimeout(() => {
        if (this.now() < until) this.set(until);
        resolve();
      }, 0)
    );
  }
}

Deno.test("an import of 1,000 rows keeps to its half of the shared window: never more than 20 searches in one window", async () => {
  // The window sleeps on the fake clock, so 25 windows pass without 25 s of waiting. Calls are
  // stamped as they are sent, which is what the window governs (the in-process fake's arrival
  // lags behind by however busy the machine is, and the fake clock may have moved by then).
  const clock = new TaskStepClock("2026-11-22T12:00:00.000Z");
  const sent: number[] = [];
  const stampingFetch: typeof fetch = (input, init) => {
    if (new URL(input instanceof Request ? input.url : input).pathname.endsWith("/search/movie")) {
      sent.push(clock.now());
    }
    return fetch(input, init);
  };
  await using w = await historyWorld({ clock, fetch: stampingFetch });
  const movies: CatalogMovie[] = Array.from({ length: 1000 }, (_, i) => ({
    id: 200_000 + i,
    title: `Imported Film ${String(i).padStart(4, "0")}`,
    release_date: "2005-05-05",
  }));
  serveCatalog(w.fake, movies);
  const file = csvText(
    ["Const", "Your Rating", "Date Rated", "Title", "Title Type", "Year"],
    movies.map((m, i) => [`tt${i}`, 1 + (i % 10), "2023-01-01", m.title, "Movie", 2005]),
  );
  const run = await w.importFile(bytesOf(file));
  assert.equal(run.status, "succeeded");
  assert.equal(run.counts.matched, 1000);
  assert.equal(run.counts.added, 1000);
  assert.equal(sent.length, 1000);
  assert.equal(w.searches(), 1000, "the fake saw every search");
  const perWindow = new Map<number, number>();
  for (const at of sent) {
    const window = Math.floor(at / WINDOW_MS);
    perWindow.set(window, (perWindow.get(window) ?? 0) + 1);
  }
  const counts = [...perWindow.values()];
  const share = WINDOW_LIMIT * BACKGROUND_SHARE;
  assert.ok(Math.max(...counts) <= share, `searches per window: ${counts.join(", ")}`);
  // And it uses its share: 1,000 searches in the fewest windows that can hold them.
  assert.equal(perWindow.size, Math.ceil(1000 / share), `per window: ${counts.join(", ")}`);
});
