/**
 * `deno task eval`: leave-out evaluation of the recommenders (docs/recommend.md, "Measuring
 * recommendations"), on a generated world or, with --database-url, on an instance's own users
 * (read only; aggregate figures only).
 *
 *   deno task eval [--users 300] [--movies 3000] [--seed 1] [--ai-users 50]
 *                  [--database-url postgres://...] [--json]
 *
 * Exits with 1 when a recommender showed a watched or dismissed film (leakage must be 0), 2 on
 * a bad option. The AI rows run when the app's AI configuration names a provider (AI_PROVIDERS, or
 * OPENAI_API_KEY / OPENAI_BASE_URL with AI_MODELS).
 */
import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "@/lib/core/config.ts";
import { evaluate } from "./eval/evaluate.ts";
import { failureOf, formatReport, jsonReport } from "./eval/report.ts";

const USAGE =
  "usage: deno task eval [--users N] [--movies N] [--seed N] [--ai-users N] [--database-url URL] [--json]";

function positive(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n) || n < 1) {
    throw new TypeError(`--${name} must be a positive whole number, got ${JSON.stringify(raw)}`);
  }
  return n;
}

async function main(args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      options: {
        users: { type: "string" },
        movies: { type: "string" },
        seed: { type: "string" },
        "ai-users": { type: "string" },
        "database-url": { type: "string" },
        json: { type: "boolean" },
        help: { type: "boolean" },
      },
    }));
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  let options;
  try {
    const movies = positive("movies", values.movies, 3000);
    const users = positive("users", values.users, 300);
    const seed = positive("seed", values.seed, 1);
    const aiUsers = positive("ai-users", values["ai-users"], 50);
    options = { movies, users, seed, aiUsers, config: loadConfig() };
  } catch (error) {
    if (error instanceof TypeError || error instanceof ConfigError) {
      console.error(`${error.message}\n${USAGE}`);
      return 2;
    }
    throw error;
  }
  const evaluation = await evaluate({
    ...options,
    databaseUrl: values["database-url"],
    progress: (line) => console.error(line),
  });
  console.log(values.json ? jsonReport(evaluation) : formatReport(evaluation));
  const failure = failureOf(evaluation);
  if (failure) console.error(failure);
  return failure ? 1 : 0;
}

Deno.exit(await main(Deno.args));
