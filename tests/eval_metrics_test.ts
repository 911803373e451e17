/**
 * The figures of `deno task eval` on hand-computed cases, the leave-out split's rules, and the
 * generated world's reproducibility (docs/recommend.md, "Measuring recommendations").
 */
import assert from "node:assert/strict";
import { Problem } from "@/lib/core/problem.ts";
import { coverage, hitAt, ndcgAt } from "@/scripts/eval/metrics.ts";
import { failureOf, formatReport, jsonReport } from "@/scripts/eval/report.ts";
import { runEvaluation } from "@/scripts/eval/run.ts";
import { heldOutOf, splitWorld } from "@/scripts/eval/split.ts";
import type { EvalData, EvalUser, Watch } from "@/scripts/eval/types.ts";
import { generateWorld } from "@/scripts/eval/world.ts";

const close = (actual: number, expected: number) =>
  assert.ok(Math.abs(actual - expected) < 1e-9, `${actual} is not ${expected}`);

Deno.test("HR@10 is 1 when a held-out film is among the first 10 picks, else 0", () => {
  assert.equal(hitAt([1, 2, 3], [3, 9]), 1);
  assert.equal(hitAt([1, 2, 3], [8, 9]), 0);
  // The 11th pick is past the cutoff.
  assert.equal(hitAt([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], [11]), 0);
  assert.equal(hitAt([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], [10]), 1);
  assert.equal(hitAt([], [1]), 0);
});

Deno.test("NDCG@10 on hand-computed cases", () => {
  // One held out, found first: 1. Found second: 1/log2(3).
  close(ndcgAt([7, 1, 2], [7]), 1);
  close(ndcgAt([1, 7, 2], [7]), 1 / Math.log2(3));
  // Two held out at ranks 1 and 3: (1 + 1/2) / (1 + 1/log2(3)).
  close(ndcgAt([4, 1, 5], [4, 5]), (1 + 0.5) / (1 + 1 / Math.log2(3)));
  // Five held out, one found at rank 4: (1/log2(5)) / (1 + 1/log2 3 + 1/2 + 1/log2 5 + 1/log2 6).
  const ideal = 1 + 1 / Math.log2(3) + 0.5 + 1 / Math.log2(5) + 1 / Math.log2(6);
  close(ndcgAt([10, 11, 12, 3, 13], [1, 2, 3, 4, 5]), 1 / Math.log2(5) / ideal);
  // All five first, in any order: 1.
  close(ndcgAt([5, 4, 3, 2, 1, 9], [1, 2, 3, 4, 5]), 1);
  // Past the cutoff, nothing; a pick repeated counts once; nothing held out is 0.
  close(ndcgAt([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 42], [42]), 0);
  close(ndcgAt([42, 42], [42, 43]), 1 / (1 + 1 / Math.log2(3)));
  close(ndcgAt([1, 2], []), 0);
});

Deno.test("coverage is the share of stored films in anyone's first 10", () => {
  close(coverage([[1, 2], [2, 3]], 10), 0.3);
  close(coverage([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]], 100), 0.1);
  close(coverage([], 10), 0);
  close(coverage([[1]], 0), 0);
});

function watch(catalogId: number, rating: number | null, watchedOn: string | null): Watch {
  return { catalogId, rating, watchedOn, createdAt: `${watchedOn ?? "2020-01-01"}T12:00:00.000Z` };
}

function user(watched: Watch[]): EvalUser {
  return { id: crypto.randomUUID(), watched, dismissed: [], myList: [] };
}

Deno.test("the split holds out the 5 most recent films rated 7 or more, by the day watched then the time written", () => {
  const watched = [
    ...Array.from({ length: 15 }, (_, i) => watch(100 + i, 5, `2024-01-${10 + i}`)),
    watch(1, 9, "2024-03-01"),
    watch(2, 7, "2024-03-05"),
    watch(3, 8, "2024-02-01"),
    watch(4, 10, "2024-04-01"),
    watch(5, 7, null), // an unknown day is the oldest
    watch(6, 8, "2024-03-05"),
    watch(7, 6, "2025-01-01"), // 6 is not liked
  ];
  // 2 and 6 share a day: the one written later is the more recent.
  watched.find((w) => w.catalogId === 6)!.createdAt = "2024-03-05T20:00:00.000Z";
  const u = user(watched);
  assert.deepEqual(heldOutOf(u), [4, 6, 2, 1, 3]);
  const split = splitWorld({ movies: [], users: [u] });
  assert.deepEqual(split.cases, [{ userId: u.id, heldOut: [4, 6, 2, 1, 3] }]);
  assert.deepEqual(
    split.train.users[0].watched.map((w) => w.catalogId).sort((a, b) => a - b),
    [5, 7, ...Array.from({ length: 15 }, (_, i) => 100 + i)],
  );
});

Deno.test("users with fewer than 20 rated films, or none rated 7 or more, are skipped and keep their history", () => {
  const nineteen = user([
    ...Array.from({ length: 19 }, (_, i) => watch(i + 1, 8, "2024-01-01")),
    ...Array.from({ length: 30 }, (_, i) => watch(i + 100, null, "2024-01-01")),
  ]);
  const twenty = user(
    Array.from({ length: 20 }, (_, i) => watch(i + 1, i < 2 ? 9 : 4, "2024-01-01")),
  );
  const unloved = user(Array.from({ length: 25 }, (_, i) => watch(i + 1, 6, "2024-01-01")));
  assert.equal(heldOutOf(nineteen), null);
  assert.equal(heldOutOf(unloved), null);
  // Fewer than 5 liked: all of them are held out.
  assert.deepEqual(heldOutOf(twenty)?.sort(), [1, 2]);
  const split = splitWorld({ movies: [], users: [nineteen, twenty, unloved] });
  assert.equal(split.skipped, 2);
  assert.deepEqual(split.cases.map((c) => c.userId), [twenty.id]);
  assert.equal(split.train.users[0].watched.length, 49);
  assert.equal(split.train.users[2].watched.length, 25);
});

Deno.test("the generated world is the same for the same seed and sizes, and another for another seed", () => {
  const a = generateWorld({ movies: 300, users: 20, seed: 5 });
  const b = generateWorld({ movies: 300, users: 20, seed: 5 });
  const c = generateWorld({ movies: 300, users: 20, seed: 6 });
  assert.deepEqual(a, b);
  assert.notDeepEqual(a.movies, c.movies);
  assert.equal(a.movies.length, 300);
  assert.equal(a.users.length, 20);
});

Deno.test("the generated world has the features tastes are made of, co-watching and dismissals", () => {
  const world = generateWorld({ movies: 1000, users: 100, seed: 1 });
  const movies = world.movies;
  const titles = new Set(movies.map((m) => m.title));
  assert.equal(titles.size, movies.length, "every title is unique");
  for (const m of movies) {
    assert.ok((m.genres as string[]).length >= 1);
    assert.ok((m.keywords as string[]).length >= 2);
    assert.equal((m.directors as string[]).length, 1);
    assert.ok((m.actors as string[]).length >= 5);
    assert.ok(Number(m.year) >= 1950 && Number(m.year) <= 2026);
    assert.ok(Number(m.popularity) > 0);
  }
  assert.ok(movies.filter((m) => m.collection_id !== null).length > 20, "collections");
  assert.ok(new Set(movies.map((m) => m.original_language)).size >= 5, "languages");
  assert.ok(new Set(movies.map((m) => Math.floor(Number(m.year) / 10))).size >= 6, "decades");
  // Co-watching: many pairs of films are watched by at least 3 users.
  const pairs = new Map<string, number>();
  for (const u of world.users) {
    const ids = u.watched.map((w) => w.catalogId).sort((a, b) => a - b).slice(0, 60);
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const key = `${ids[i]}:${ids[j]}`;
        pairs.set(key, (pairs.get(key) ?? 0) + 1);
      }
    }
  }
  assert.ok([...pairs.values()].filter((n) => n >= 3).length > 500, "co-watched pairs");
  assert.ok(world.users.filter((u) => u.dismissed.length > 0).length > 30, "dismissals");
  for (const u of world.users) {
    const watched = new Set(u.watched.map((w) => w.catalogId));
    assert.ok(u.dismissed.every((d) => !watched.has(d.catalogId)), "a dismissed film is unwatched");
    const rated = u.watched.filter((w) => w.rating !== null);
    assert.ok(rated.every((w) => w.rating! >= 1 && w.rating! <= 10));
  }
  // Ratings follow taste with noise: every score from low to high is given.
  const ratings = new Set(world.users.flatMap((u) => u.watched.map((w) => w.rating)));
  for (const r of [1, 3, 5, 7, 9, 10, null]) assert.ok(ratings.has(r), `rating ${r}`);
});

/** A train world of 3 stored films and one user who watched 1 and dismissed 2. */
const TRAIN: EvalData = {
  movies: [{ catalog_id: 1 }, { catalog_id: 2 }, { catalog_id: 3 }, { catalog_id: 4 }],
  users: [{
    id: "u1",
    watched: [watch(1, 8, "2024-01-01")],
    dismissed: [{ catalogId: 2, createdAt: "2024-01-01T00:00:00.000Z" }],
    myList: [],
  }, { id: "u2", watched: [], dismissed: [], myList: [] }],
};

function fixed(name: string, ids: number[], options: { ai?: boolean; unresolved?: number } = {}) {
  return {
    name,
    ai: options.ai ?? false,
    recommend: () => Promise.resolve({ ids, unresolved: options.unresolved ?? 0 }),
  };
}

Deno.test("leakage counts watched and dismissed films shown, unresolved counts AI misses and ids not stored, failures count as no hit", async () => {
  const cases = [{ userId: "u1", heldOut: [3] }, { userId: "u2", heldOut: [4] }];
  const results = await runEvaluation([
    fixed("leaky", [1, 2, 3]),
    fixed("clean", [3, 4, 99], { unresolved: 2 }),
    {
      name: "broken",
      ai: false,
      recommend: () => Promise.reject(new Problem(502, "ai_bad_output", "Only 3 could be used")),
    },
  ], { train: TRAIN, cases, aiUsers: 10 });
  const [leaky, clean, broken] = results.rows;
  // u1 is shown the watched 1 and the dismissed 2; u2 watched nothing, so only 1 and 2 for u1.
  assert.equal(leaky.leakage, 2);
  close(leaky.hr, 0.5); // 3 is u1's held-out film (rank 3); u2's 4 is not shown
  close(leaky.ndcg, (1 / Math.log2(4) + 0) / 2);
  assert.equal(clean.leakage, 0);
  // Two AI titles per user resolved to nothing, and 99 is not stored: (2 + 1) per user.
  assert.equal(clean.unresolved, 6);
  close(clean.coverage, 2 / 4);
  assert.equal(broken.failures, 2);
  close(broken.hr, 0);
  assert.deepEqual(results.errors.broken, {
    code: "502 ai_bad_output",
    message: "Only 3 could be used",
  });
  const evaluation = {
    ...results,
    world: {
      kind: "instance" as const,
      movies: 4,
      users: 2,
      evaluated: 2,
      skipped: 0,
      watched: 1,
    },
    seconds: { prepare: 1, total: 2 },
  };
  assert.equal(
    failureOf(evaluation),
    "Leakage must be 0: leaky showed watched or dismissed films.",
  );
  assert.equal(failureOf({ ...evaluation, rows: [clean, broken] }), null);
  // On an instance an error is printed by its code alone: its message may name a film.
  const table = formatReport(evaluation);
  assert.match(table, /broken failed for some users; the first: 502 ai_bad_output$/m);
  assert.ok(!table.includes("Only 3 could be used"));
  assert.ok(!jsonReport(evaluation).includes("Only 3 could be used"));
});

Deno.test("the AI recommenders run on the first --ai-users users, and the others are summed again on those", async () => {
  const cases = [{ userId: "u1", heldOut: [3] }, { userId: "u2", heldOut: [4] }];
  const asked: string[] = [];
  const results = await runEvaluation([
    fixed("popularity", [4]),
    {
      name: "AI alone",
      ai: true,
      recommend: (userId: string) => {
        asked.push(userId);
        return Promise.resolve({ ids: [3], unresolved: 0 });
      },
    },
  ], { train: TRAIN, cases, aiUsers: 1 });
  assert.deepEqual(asked, ["u1"]);
  assert.deepEqual(
    results.rows.map((r) => [r.recommender, r.users, r.hr]),
    [["popularity", 2, 0.5], ["AI alone", 1, 1], ["popularity (AI's users)", 1, 0]],
  );
});
