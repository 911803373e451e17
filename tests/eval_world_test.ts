/**
 * `deno task eval` on a small generated world (docs/recommend.md, "Measuring recommendations"):
 * the local recommender beats popularity by at least 2x in NDCG@10, nothing watched or dismissed
 * is shown, local picks all resolve, and the two stages, with a fake provider that keeps the
 * local candidates in their order, are no worse than local.
 */
import assert from "node:assert/strict";
import { loadConfig } from "@/lib/core/config.ts";
import { evaluate, type Evaluation } from "@/scripts/eval/evaluate.ts";
import { formatReport } from "@/scripts/eval/report.ts";
import { generateWorld } from "@/scripts/eval/world.ts";
import { type RecordedRequest, startFakeAi } from "./helpers/fake_ai.ts";
import { providersEnv } from "./helpers/fake_ai.ts";
import { testStore } from "./helpers/store.ts";

const WORLD = { movies: 600, users: 60, seed: 1 };

function row(evaluation: Evaluation, name: string) {
  const found = evaluation.rows.find((r) => r.recommender === name);
  assert.ok(found, `no row ${name}: ${evaluation.rows.map((r) => r.recommender)}`);
  return found;
}

function content(films: { title: string; year: number }[]): string {
  return JSON.stringify({
    recommendations: films.map((f) => ({ ...f, reason: "It fits." })),
  });
}

const CANDIDATE_LINE = /^\d+\. (.+) \((\d{4})\)$/gm;
const NOBODY_MADE_IT = { title: "A Film Nobody Ever Made", year: 1999 };

Deno.test("deno task eval on a generated world: local NDCG@10 at least 2x popularity's, no leakage, local picks all resolve, and the two stages (keeping the local candidates' order) no worse than local", async () => {
  const world = generateWorld(WORLD);
  const popular = [...world.movies]
    .sort((a, b) => Number(b.popularity) - Number(a.popularity))
    .slice(0, 30)
    .map((m) => ({ title: String(m.title), year: Number(m.year) }));
  await using fake = startFakeAi({
    fallback: (request: RecordedRequest) => {
      const messages = request.body.messages as { content: string }[];
      const last = messages[messages.length - 1].content;
      const candidates = [...last.matchAll(CANDIDATE_LINE)].map((m) => ({
        title: m[1],
        year: Number(m[2]),
      }));
      // The two stages: the candidates as they came. The AI alone: the most popular films it
      // knows of this world, and one that does not exist.
      return {
        content: content(
          candidates.length > 0 ? candidates.slice(0, 20) : [...popular, NOBODY_MADE_IT],
        ),
      };
    },
  });
  await using store = await testStore("embedded");
  const evaluation = await evaluate({
    ...WORLD,
    config: loadConfig(providersEnv([{ name: "fake", baseUrl: fake.baseUrl }])),
    aiUsers: 1000,
    timeoutMs: 10_000,
    store,
  });
  assert.deepEqual(
    evaluation.rows.map((r) => r.recommender),
    ["popularity", "local", "AI alone", "two stages"],
  );
  const popularity = row(evaluation, "popularity");
  const local = row(evaluation, "local");
  assert.equal(evaluation.world.kind, "generated");
  assert.equal(evaluation.world.movies, WORLD.movies);
  assert.equal(evaluation.world.evaluated + evaluation.world.skipped, WORLD.users);
  assert.ok(evaluation.world.evaluated >= WORLD.users * 0.9);
  assert.equal(popularity.users, evaluation.world.evaluated);
  assert.equal(local.users, evaluation.world.evaluated);
  assert.ok(popularity.ndcg > 0, "popularity finds some");
  assert.ok(
    local.ndcg >= 2 * popularity.ndcg,
    `local NDCG@10 ${local.ndcg} against popularity's ${popularity.ndcg}`,
  );
  assert.ok(local.hr > popularity.hr);
  assert.ok(local.coverage > popularity.coverage);
  for (const r of [popularity, local]) {
    assert.equal(r.unresolved, 0, `${r.recommender} picked a film not stored`);
    assert.equal(r.failures, 0);
  }
  const table = formatReport(evaluation);
  assert.match(
    table,
    /\| local \| \d+ \| 0\.\d{3} \| 0\.\d{3} \| [\d.]+% \| 0 \| 0 \| 0 \| [\d.]+ \|/,
  );
  assert.match(table, /seed 1/);
  const two = row(evaluation, "two stages");
  const alone = row(evaluation, "AI alone");
  assert.equal(two.users, local.users);
  assert.equal(two.failures, 0, JSON.stringify(evaluation.errors));
  assert.ok(two.ndcg >= local.ndcg - 1e-9, `two stages ${two.ndcg} against local ${local.ndcg}`);
  assert.ok(two.hr >= local.hr - 1e-9);
  assert.equal(two.unresolved, 0);
  // Every AI-alone round named the film nobody made: one unresolved pick at least per user asked.
  assert.ok(alone.unresolved >= alone.users - alone.failures, `unresolved ${alone.unresolved}`);
  for (const r of evaluation.rows) assert.equal(r.leakage, 0, r.recommender);
  // The two stages' prompts carried the local candidates; the AI alone's did not.
  const withCandidates = fake.requests.filter((r) =>
    JSON.stringify(r.body.messages).includes("Candidates a recommender found")
  );
  assert.ok(withCandidates.length >= two.users);
  assert.ok(fake.requests.length > withCandidates.length);
});

Deno.test("deno task eval runs the AI on the first --ai-users users and sums popularity and local again on them", async () => {
  await using fake = startFakeAi({
    fallback: (request: RecordedRequest) => {
      const messages = request.body.messages as { content: string }[];
      const last = messages[messages.length - 1].content;
      const candidates = [...last.matchAll(CANDIDATE_LINE)].map((m) => ({
        title: m[1],
        year: Number(m[2]),
      }));
      return { content: content(candidates.slice(0, 20)) };
    },
  });
  await using store = await testStore("embedded");
  const evaluation = await evaluate({
    movies: 300,
    users: 30,
    seed: 9,
    config: loadConfig(providersEnv([{ name: "fake", baseUrl: fake.baseUrl }])),
    aiUsers: 4,
    timeoutMs: 10_000,
    store,
  });
  const users = Object.fromEntries(evaluation.rows.map((r) => [r.recommender, r.users]));
  assert.deepEqual(users, {
    popularity: evaluation.world.evaluated,
    local: evaluation.world.evaluated,
    "AI alone": 4,
    "two stages": 4,
    "popularity (AI's users)": 4,
    "local (AI's users)": 4,
  });
  // The AI alone asked with no candidates got none back: a failed generation, counted, not hidden.
  assert.equal(row(evaluation, "AI alone").failures, 4);
  assert.match(evaluation.errors["AI alone"].code, /^50\d /);
  assert.match(formatReport(evaluation), /AI alone failed for some users; the first: 50\d /);
});

Deno.test("deno task eval without a provider measures popularity and local only", async () => {
  await using store = await testStore("embedded");
  const evaluation = await evaluate({
    movies: 200,
    users: 20,
    seed: 2,
    config: loadConfig({}),
    aiUsers: 50,
    store,
  });
  assert.deepEqual(evaluation.rows.map((r) => r.recommender), ["popularity", "local"]);
  for (const r of evaluation.rows) {
    assert.equal(r.users, evaluation.world.evaluated);
    assert.equal(r.leakage, 0);
    assert.equal(r.unresolved, 0);
  }
  assert.deepEqual(evaluation.errors, {});
});
