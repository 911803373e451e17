/** One generation: the user's taste from the store, the AI rounds, and the new set stored. */
import type { AppDeps } from "../deps.ts";
import { CACHE_TTL_MS, type StoredSet, writeStoredSet } from "./cache.ts";
import { generate } from "./generate.ts";
import { parseOutput } from "./parse_output.ts";
import { label } from "./prompt.ts";
import { complete } from "./providers.ts";
import { resolveTitles } from "./resolve_titles.ts";
import { loadTaste, titlesOf } from "./taste.ts";
import type { RecommendMode, RecommendServiceOptions } from "./types.ts";

/** What a regeneration starts from: the mode, the stored set and the watched history. */
export interface RegenerationInput {
  mode: RecommendMode;
  stored: StoredSet | null;
  hash: string;
  watchedIds: number[];
}

/** Generates and stores a new set for `userId`; returns its ids. */
export type Regenerate = (userId: string, input: RegenerationInput) => Promise<number[]>;

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
    resolveTitles(candidates, { sql: store, search: options.search, log });

  return async (userId, { mode, stored, hash, watchedIds }) => {
    const previousIds = mode === "getNew" ? stored?.ids ?? [] : [];
    // The profile is read only here: a cached answer needs the watched ids alone.
    const { taste, previousTitles } = await store.asUser(userId, async (tx) => ({
      taste: await loadTaste(tx, userId, { watchedIds }),
      previousTitles: (await titlesOf(tx, previousIds)).map(label),
    }));
    const ids = await generate(taste, { previousIds, previousTitles, ask, resolve });
    const set = { ids, watchedHash: hash, expiresAt: new Date(clock.now() + CACHE_TTL_MS) };
    await store.asUser(userId, (tx) => writeStoredSet(tx, { userId, ...set }));
    return ids;
  };
}
