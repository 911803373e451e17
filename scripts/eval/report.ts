/**
 * The table `deno task eval` prints (docs/recommend.md, "Measuring recommendations"), in
 * Markdown so it goes into BENCHMARKS.md as it is. On an instance only aggregate figures are
 * printed: counts, rates and times, never a user, a film or an error's message.
 */
import type { Evaluation } from "./evaluate.ts";
import { CUTOFF } from "./metrics.ts";
import { HELD_OUT, LIKED, MIN_RATED } from "./split.ts";

const count = (n: number) => n.toLocaleString("en-US");
const rate = (x: number) => x.toFixed(3);
const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The evaluation as Markdown lines. */
export function formatReport(evaluation: Evaluation): string {
  const { world } = evaluation;
  const where = world.kind === "generated"
    ? `a generated world (seed ${world.seed}): ${count(world.movies)} movies, ${
      count(world.users)
    } users, ${count(world.watched)} watched films`
    : `this instance: ${count(world.movies)} movies, ${count(world.users)} users with a history, ${
      count(world.watched)
    } watched films`;
  const lines = [
    `Evaluated on ${where}.`,
    `${count(world.evaluated)} users evaluated, ${count(world.skipped)} skipped (fewer than ` +
    `${MIN_RATED} rated films, or none rated ${LIKED} or more); each user's ${HELD_OUT} most ` +
    `recent films rated ${LIKED} or more held out, picks ranked against every stored film.`,
    "",
    `| Recommender | Users | HR@${CUTOFF} | NDCG@${CUTOFF} | Coverage | Leakage | Unresolved | Failures | ms/user |`,
    "|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ...evaluation.rows.map((r) =>
      `| ${r.recommender} | ${count(r.users)} | ${rate(r.hr)} | ${rate(r.ndcg)} | ${
        percent(r.coverage)
      } | ${r.leakage} | ${r.unresolved} | ${r.failures} | ${r.msPerUser.toFixed(1)} |`
    ),
    "",
    `Prepared in ${evaluation.seconds.prepare.toFixed(1)} s, ${
      evaluation.seconds.total.toFixed(1)
    } s in all.`,
  ];
  for (const [name, error] of Object.entries(evaluation.errors)) {
    lines.push(
      world.kind === "generated"
        ? `${name} failed for some users; the first: ${error.code}: ${error.message}`
        : `${name} failed for some users; the first: ${error.code}`,
    );
  }
  return lines.join("\n");
}

/** The evaluation as JSON (`--json`), as aggregate as the table. */
export function jsonReport(evaluation: Evaluation): string {
  const errors = Object.fromEntries(
    Object.entries(evaluation.errors).map(([name, e]) => [
      name,
      evaluation.world.kind === "generated" ? e : { code: e.code },
    ]),
  );
  return JSON.stringify({ ...evaluation, errors }, null, 2);
}

/**
 * Why the run fails, or null: leakage must be 0 (a watched or dismissed film shown), so a run that
 * shows one exits with 1 and says which recommender.
 */
export function failureOf(evaluation: Evaluation): string | null {
  const leaking = evaluation.rows.filter((r) => r.leakage > 0).map((r) => r.recommender);
  return leaking.length
    ? `Leakage must be 0: ${leaking.join(", ")} showed watched or dismissed films.`
    : null;
}
