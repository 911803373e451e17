/**
 * Runs each recommender for each evaluated user and sums up the figures (docs/recommend.md,
 * "Measuring recommendations"): HR@10, NDCG@10, catalog coverage, leakage (a watched or dismissed
 * film shown), unresolved picks, failures, and the time per user.
 */
import { Problem } from "@/lib/core/problem.ts";
import { coverage, CUTOFF, hitAt, ndcgAt } from "./metrics.ts";
import type { Recommender } from "./recommenders.ts";
import type { EvalCase } from "./split.ts";
import type { EvalData } from "./types.ts";

/** One recommender's answer for one user, measured. */
interface UserResult {
  userId: string;
  ids: number[];
  hit: number;
  ndcg: number;
  leaked: number;
  unresolved: number;
  failed: boolean;
  ms: number;
}

/** One line of the table. */
interface Row {
  recommender: string;
  users: number;
  hr: number;
  ndcg: number;
  coverage: number;
  leakage: number;
  unresolved: number;
  failures: number;
  msPerUser: number;
}

/** What a run measured, and on whom. */
export interface Results {
  rows: Row[];
  /**
   * The first failure of each recommender that failed for some user: its code (a Problem's
   * status and code, else the error's name) and its message, which may name a film.
   */
  errors: Record<string, { code: string; message: string }>;
}

function summarise(name: string, results: UserResult[], stored: Set<number>): Row {
  const n = results.length || 1;
  const sum = (f: (r: UserResult) => number) => results.reduce((a, r) => a + f(r), 0);
  return {
    recommender: name,
    users: results.length,
    hr: sum((r) => r.hit) / n,
    ndcg: sum((r) => r.ndcg) / n,
    // Only stored films are the catalog: an id that is not stored is an unresolved pick.
    coverage: coverage(results.map((r) => r.ids.filter((id) => stored.has(id))), stored.size),
    leakage: sum((r) => r.leaked),
    unresolved: sum((r) => r.unresolved),
    failures: sum((r) => (r.failed ? 1 : 0)),
    msPerUser: sum((r) => r.ms) / n,
  };
}

/**
 * Measures `recommenders` on `cases` over `train` (the world they see). Recommenders that ask an
 * AI run on the first `aiUsers` cases only; popularity and local are then summed again on those
 * same users, so the rows compare like with like.
 */
export async function runEvaluation(
  recommenders: Recommender[],
  options: {
    train: EvalData;
    cases: EvalCase[];
    aiUsers: number;
    progress?: (line: string) => void;
  },
): Promise<Results> {
  const { train, cases } = options;
  const stored = new Set(train.movies.map((m) => Number(m.catalog_id)));
  const seen = new Map(
    train.users.map((u) => [
      u.id,
      new Set([...u.watched.map((w) => w.catalogId), ...u.dismissed.map((d) => d.catalogId)]),
    ]),
  );
  const byName = new Map<string, UserResult[]>();
  const errors: Results["errors"] = {};
  const aiCases = cases.slice(0, options.aiUsers);
  for (const recommender of recommenders) {
    const results: UserResult[] = [];
    for (const c of recommender.ai ? aiCases : cases) {
      const start = performance.now();
      let ids: number[] = [];
      let unresolved = 0;
      let failed = false;
      try {
        ({ ids, unresolved } = await recommender.recommend(c.userId));
      } catch (error) {
        failed = true;
        errors[recommender.name] ??= {
          code: error instanceof Problem
            ? `${error.status} ${error.code}`
            : error instanceof Error
            ? error.name
            : "error",
          message: error instanceof Error ? error.message : String(error),
        };
      }
      const ms = performance.now() - start;
      ids = ids.slice(0, CUTOFF);
      const watched = seen.get(c.userId) ?? new Set();
      results.push({
        userId: c.userId,
        ids,
        hit: hitAt(ids, c.heldOut),
        ndcg: ndcgAt(ids, c.heldOut),
        leaked: ids.filter((id) => watched.has(id)).length,
        // An id the store does not hold is a pick nobody could be shown.
        unresolved: unresolved + ids.filter((id) => !stored.has(id)).length,
        failed,
        ms,
      });
    }
    byName.set(recommender.name, results);
    options.progress?.(`${recommender.name}: ${results.length} users`);
  }
  const rows = recommenders.map((r) => summarise(r.name, byName.get(r.name)!, stored));
  const aiRan = recommenders.some((r) => r.ai);
  if (aiRan && aiCases.length < cases.length) {
    const same = new Set(aiCases.map((c) => c.userId));
    for (const r of recommenders.filter((r) => !r.ai)) {
      const subset = byName.get(r.name)!.filter((x) => same.has(x.userId));
      rows.push(summarise(`${r.name} (AI's users)`, subset, stored));
    }
  }
  return { rows, errors };
}
