/**
 * One generation: the user's taste, dismissals and 👍/👎 from the store, the local candidates
 * (the first of the two stages, docs/recommend.md), the AI rounds, and the new set stored with
 * each pick's cleaned reason.
 */
import type { AppDeps } from "../platform/deps.ts";
import { describeError } from "../core/log.ts";
import type { StoredSet } from "./cache.ts";
import { dismissedIds } from "./dismissed.ts";
import { generate, type Pick } from "./ai_rounds.ts";
import { localCandidates } from "./candidates.ts";
import { loadFeedbackTitles } from "./feedback_titles.ts";
import { parseOutput } from "./parse_output.ts";
import { label } from "./prompt.ts";
import { complete } from "./providers.ts";
import { resolveTitles } from "./resolve_titles.ts";
import { NOT_INTERESTED_TITLES } from "./prompt_extras.ts";
import { emailOf, storePicks } from "./store_picks.ts";
import { lookUpUnknown } from "./look_up_unknown.ts";
import { loadTaste, titlesOf } from "./taste.ts";
import type { RecommendMode, RecommendServiceOptions } from "./types.ts";

/** What a regeneration starts from: the mode, the stored set and the watched history. */
interface RegenerationInput {
  mode: RecommendMode;
  stored: StoredSet | null;
  hash: string;
  watchedIds: number[];
}

/** Generates and stores a new set for `userId`; returns its ids. */
type Regenerate = (userId: string, input: RegenerationInput) => Promise<number[]>;

/** How `generationPicks` works: the two stages or the AI alone, and what it leaves out. */
interface GenerationOptions extends RecommendServiceOptions {
  /** "two": the local candidates go to the AI (GET /api/recommend); "ai": the AI alone. */
  stages: "two" | "ai";
  /** A previous set to leave out (getNew). */
  previousIds?: number[];
  /** The watched ids, when already read. */
  watchedIds?: number[];
}

/**
 * One user's generation without HTTP, quota, lease or storing: the picks in the AI's order
 * (at most 20, each with its uncleaned reason). GET /api/recommend stores what it returns;
 * `deno task eval` (scripts/eval) calls it for "AI alone" (`stages: "ai"`) and "the two
 * stages" (`stages: "two"`). Throws the Problem the route would answer (502, 503).
 */
export async function generationPicks(
  deps: AppDeps,
  userId: string,
  options: GenerationOptions,
): Promise<Pick[]> {
  const { store, clock, log } = deps;
  const previousIds = options.previousIds ?? [];
  // The profile is read only here: a cached answer needs the watched ids alone.
  const { taste, previousTitles, dismissed, feedback } = await store.asUser(userId, async (tx) => ({
    taste: await loadTaste(tx, userId, { watchedIds: options.watchedIds }),
    previousTitles: (await titlesOf(tx, previousIds)).map(label),
    dismissed: await dismissedIds(tx, userId),
    feedback: await loadFeedbackTitles(tx, userId),
  }));
  // Every dismissed movie the prompt lists is named: one the store lacks is looked up first.
  const named = dismissed.slice(0, NOT_INTERESTED_TITLES);
  await lookUpUnknown(deps, named, options.details);
  const dismissedTitles = (await titlesOf(store, named)).map(label);
  const streaming = (await options.streaming?.(userId)) ?? undefined;
  // The first stage helps the AI; when it fails the AI still answers alone, as before it.
  const candidates = options.stages === "two"
    ? await localCandidates(deps, userId, { exclude: previousIds }).catch((error) => {
      log({ level: "warn", msg: "local candidates failed", error: describeError(error) });
      return [];
    })
    : [];
  return await generate(taste, {
    streaming,
    previousIds,
    previousTitles,
    dismissedIds: dismissed,
    dismissedTitles,
    candidates,
    feedback,
    ask: (messages) =>
      complete(deps.config.aiProviders, messages, {
        fetch: deps.fetch,
        parse: parseOutput,
        timeoutMs: options.timeoutMs,
        log,
      }),
    resolve: (films) =>
      resolveTitles(films, { sql: store, search: options.search, log, now: clock.now() }),
  });
}

/** Builds the regeneration step (the two stages) over the app's store, AI and catalog search. */
export function createRegenerate(deps: AppDeps, options: RecommendServiceOptions): Regenerate {
  const { store, clock } = deps;
  return async (userId, { mode, stored, hash, watchedIds }) => {
    const picks = await generationPicks(deps, userId, {
      ...options,
      stages: "two",
      previousIds: mode === "getNew" ? stored?.ids ?? [] : [],
      watchedIds,
    });
    const email = await emailOf(store, userId);
    return await store.asUser(
      userId,
      (tx) => storePicks(tx, userId, { picks, watchedHash: hash, email, now: clock.now() }),
    );
  };
}
