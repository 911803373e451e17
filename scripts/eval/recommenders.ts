/**
 * The recommenders `deno task eval` measures (docs/recommend.md, "Measuring recommendations"),
 * each as the app runs it for one user over the evaluation store: the most popular stored films,
 * the local recommender, the AI alone and the two stages (without HTTP, quota or lease, nothing
 * stored). Each answers its first CUTOFF picks, best first, and the AI titles that resolved to no
 * stored film.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { generationPicks } from "@/lib/recommend/generation.ts";
import { localPicks } from "@/lib/recommend/local/mod.ts";
import { CUTOFF } from "./metrics.ts";

/** One user's answer. */
interface Answer {
  ids: number[];
  /** Titles the AI named that no stored film matched. */
  unresolved: number;
}

/** A recommender under evaluation. */
export interface Recommender {
  name: string;
  /** Asks an AI provider (run on at most `--ai-users` users). */
  ai: boolean;
  recommend(userId: string): Promise<Answer>;
}

/** The most popular stored films the user has not watched, dismissed or put on My List. */
function popularity(deps: AppDeps): Recommender {
  return {
    name: "popularity",
    ai: false,
    async recommend(userId) {
      const rows = await deps.store.query<{ catalog_id: number }>(
        `select m.catalog_id
           from public.movies m
          where m.title <> ''
            and not exists (select 1 from public.user_watched_movies w
                             where w.user_id = $1 and w.catalog_id = m.catalog_id)
            and not exists (select 1 from public.user_dismissed_movies d
                             where d.user_id = $1 and d.catalog_id = m.catalog_id)
            and m.catalog_id <> all(coalesce(
              (select l.catalog_ids from public.user_my_list l where l.user_id = $1), '{}'))
          order by m.popularity desc, m.catalog_id
          limit ${CUTOFF}`,
        [userId],
      );
      return { ids: rows.map((r) => Number(r.catalog_id)), unresolved: 0 };
    },
  };
}

/** The local recommender, as GET /api/recommend/local runs it. */
function local(deps: AppDeps): Recommender {
  return {
    name: "local",
    ai: false,
    async recommend(userId) {
      const picks = await localPicks(deps, userId, { limit: CUTOFF, onlyMine: false, exclude: [] });
      return { ids: picks.map((p) => p.catalogId), unresolved: 0 };
    },
  };
}

/**
 * A generation of GET /api/recommend: `stages` "ai" (the AI alone, inventing its candidates) or
 * "two" (choosing and ordering the local candidates). The catalog search a title the store does
 * not know would go to is counted instead, as an unresolved pick: the world is what is stored.
 */
function generation(deps: AppDeps, stages: "ai" | "two", timeoutMs?: number): Recommender {
  return {
    name: stages === "ai" ? "AI alone" : "two stages",
    ai: true,
    async recommend(userId) {
      let unresolved = 0;
      const picks = await generationPicks(deps, userId, {
        stages,
        timeoutMs,
        search: () => {
          unresolved++;
          return Promise.resolve({ results: [] });
        },
      });
      return { ids: picks.slice(0, CUTOFF).map((p) => p.catalogId), unresolved };
    },
  };
}

/** The recommenders to measure: popularity and local, and the AI's two when a provider is set. */
export function recommenders(deps: AppDeps, options: { timeoutMs?: number } = {}): Recommender[] {
  const all = [popularity(deps), local(deps)];
  if (deps.config.aiProviders.length > 0) {
    all.push(generation(deps, "ai", options.timeoutMs), generation(deps, "two", options.timeoutMs));
  }
  return all;
}
