/**
 * The night's shortlist (docs/nights.md, "The shortlist"): candidates from each member's own
 * local picks (the films no member watched or dismissed), scored by every member's local model,
 * kept to what streams on a member's service with `onlyMine`, ranked by the lowest member's score
 * (then the mean), each with reasons of shared tastes that name no member's film.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { type MemberScore, rankForGroup } from "./ranking.ts";
import { sharedReasons } from "./shared_reasons.ts";
import { STREAMING_SQL, UNSEEN_SQL } from "./night_sql.ts";
import { SHORTLIST_SIZE } from "./limits.ts";

/** What the shortlist needs of the local recommender (lib/recommend/local). */
export interface NightScorer {
  /** `userId`'s best stored films, none of `exclude`, at most `limit`, best first. */
  picks(userId: string, options: { limit: number; exclude: number[] }): Promise<number[]>;
  /** `userId`'s score of each of `catalogIds`, with the shared features that drew them. */
  scores(userId: string, catalogIds: number[]): Promise<Map<number, MemberScore>>;
}

/** One film of a new shortlist. */
interface ShortlistFilm {
  catalogId: number;
  reasons: string[];
}

/** Candidates asked of each member: enough that the group's lowest scores have room to differ. */
const PICKS_PER_MEMBER = 30;
/** With `onlyMine` many candidates stream nowhere the members have: ask for more. */
const PICKS_PER_MEMBER_MINE = 250;

// A reason's label that is, or holds, the title of a film a member watched or dismissed (a
// collection named after it, a keyword that is its name) would tell the others what they saw.
// Of the labels' runs of words (`$2`), those whose title key (public.title_key: no case, accents,
// spaces or punctuation) is a member's film's: the stored films are found by the key's index.
const TITLED_SQL = `select r.run as title from unnest($2::text[]) as r(run)
  where public.title_key(r.run) = any (array(
    select m.title_key from public.movies m
     where m.title_key = any (array(select public.title_key(x) from unnest($2::text[]) as x))
       and (exists (select 1 from public.user_watched_movies w
                     where w.user_id = any ($1::uuid[]) and w.catalog_id = m.catalog_id)
         or exists (select 1 from public.user_dismissed_movies d
                     where d.user_id = any ($1::uuid[]) and d.catalog_id = m.catalog_id))))`;

/** Every run of whole words of `label`, lower-cased: the titles it could hold. */
function wordRuns(label: string): string[] {
  const words = label.toLowerCase().split(/\s+/).filter(Boolean);
  const runs: string[] = [];
  for (let i = 0; i < words.length; i++) {
    for (let j = i + 1; j <= words.length; j++) runs.push(words.slice(i, j).join(" "));
  }
  return runs;
}

/** A new shortlist of up to 12 films for `members` (user ids, the creator first). */
export async function buildShortlist(
  deps: Pick<AppDeps, "store">,
  members: string[],
  options: { scorer: NightScorer; onlyMine: boolean; exclude: number[] },
): Promise<ShortlistFilm[]> {
  const { store } = deps;
  const exclude = options.exclude;
  const limit = options.onlyMine ? PICKS_PER_MEMBER_MINE : PICKS_PER_MEMBER;
  // Each member's picks leave out their own films; the others' are taken out below.
  const lists = await Promise.all(
    members.map((m) => options.scorer.picks(m, { limit, exclude })),
  );
  // Each member's best in turn, so nobody's picks crowd out the others' before the ranking.
  const excluded = new Set(exclude);
  const offered: number[] = [];
  const taken = new Set<number>();
  for (let i = 0; i < limit; i++) {
    for (const list of lists) {
      const id = list[i];
      if (id === undefined || taken.has(id) || excluded.has(id)) continue;
      taken.add(id);
      offered.push(id);
    }
  }
  const candidates = offered.length === 0
    ? []
    : (await store.query<{ catalogId: number }>(UNSEEN_SQL, [members, offered]))
      .map((r) => Number(r.catalogId));
  let pool = candidates;
  if (options.onlyMine && pool.length > 0) {
    const streaming = new Set(
      (await store.query<{ catalogId: number }>(STREAMING_SQL, [members, pool]))
        .map((r) => Number(r.catalogId)),
    );
    pool = pool.filter((id) => streaming.has(id));
  }
  if (pool.length === 0) return [];
  const scores = await Promise.all(members.map((m) => options.scorer.scores(m, pool)));
  const ranked = rankForGroup(pool, scores, SHORTLIST_SIZE);
  const labels = [...new Set(ranked.flatMap((f) => f.members.flatMap((m) => m.traits)))];
  const runs = [...new Set(labels.flatMap(wordRuns))];
  const titled = runs.length === 0 ? new Set<string>() : new Set(
    (await store.query<{ title: string }>(TITLED_SQL, [members, runs])).map((r) => r.title),
  );
  const forbidden = (label: string) => wordRuns(label).some((run) => titled.has(run));
  return ranked.map((f) => ({
    catalogId: f.catalogId,
    reasons: sharedReasons(f.members, { forbidden }),
  }));
}
