/**
 * One generation: the user's taste and dismissals from the store, the AI rounds, and the new
 * set stored with each pick's cleaned reason.
 */
import type { AppDeps } from "../platform/deps.ts";
import type { StoredSet } from "./cache.ts";
import { dismissedIds } from "./dismissed.ts";
import { generate } from "./ai_rounds.ts";
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

/** Builds the regeneration step over the app's store, AI providers and catalog search. */
export function createRegenerate(deps: AppDeps, options: RecommendServiceOptions): Regenerate {
  const { store, clock, log } = deps;
  const ask = (messages: Parameters<typeof complete>[1]) =>
    complete(deps.config.aiProviders, messages, {
      fetch: deps.fetch,
      parse: parseOutput,
      timeoutMs: options.timeoutMs,
      log,
    });
  const resolve = (candidates: Parameters<typeof resolveTitles>[0]) =>
    resolveTitles(candidates, { sql: store, search: options.search, log, now: clock.now() });

  return async (userId, { mode, stored, hash, watchedIds }) => {
    const previousIds = mode === "getNew" ? stored?.ids ?? [] : [];
    // The profile is read only here: a cached answer needs the watched ids alone.
    const { taste, previousTitles, dismissed } = await store.asUser(userId, async (tx) => ({
      taste: await loadTaste(tx, userId, { watchedIds }),
      previousTitles: (await titlesOf(tx, previousIds)).map(label),
      dismissed: await dismissedIds(tx, userId),
    }));
    // Every dismissed movie the prompt lists is named: one the store lacks is looked up first.
    const named = dismissed.slice(0, NOT_INTERESTED_TITLES);
    await lookUpUnknown(deps, named, options.details);
    const dismissedTitles = (await titlesOf(store, named)).map(label);
    const streaming = (await options.streaming?.(userId)) ?? undefined;
    const picks = await generate(taste, {
      streaming,
      previousIds,
      previousTitles,
      dismissedIds: dismissed,
      dismissedTitles,
      ask,
      resolve,
    });
    const email = await emailOf(store, userId);
    return await store.asUser(
      userId,
      (tx) => storePicks(tx, userId, { picks, watchedHash: hash, email, now: clock.now() }),
    );
  };
}
