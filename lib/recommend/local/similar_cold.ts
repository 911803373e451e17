/**
 * "More like this" before the index is built (docs/recommend.md, "Local picks", "A cold start"):
 * the page's film's features, then one statement over the films sharing them. Candidates share something telling with it
 * (the collection, a director, a keyword or one of the first 5 cast); they are ordered by the
 * kinds' weights of what they share (without rarity, co-watching or the prior, which need the
 * index), then the more popular, then the lower id. The reasons say what was shared, as the
 * index's answer does.
 */
import { Problem } from "@/lib/core/problem.ts";
import { CARD_COLUMNS, type MovieCard, toCard } from "@/lib/catalog/cards.ts";
import type { Sql } from "@/lib/platform/store/mod.ts";
import { type FeatureKind, KIND_WEIGHTS } from "./feature_index.ts";
import { sharedReasons } from "./explain.ts";

/** A card of "more like this": the list card and why. */
export type SimilarCard = MovieCard & { reasons: string[] };

const TARGET_SQL = `select coalesce(genres, '{}') as genres, coalesce(keywords, '{}') as keywords,
    coalesce(directors, '{}') as directors, coalesce(actors[1:5], '{}') as actors,
    collection_id, original_language, coalesce(year, 0) as year
  from public.movies where catalog_id = $1`;

// The candidates come through the indexes of 20261206100302_local_recommend_cold_indexes.sql,
// one arm of the union each, their ids as one array the primary key is read by (with the four
// tests OR-ed in one scan, or the union joined, the planner read every row; the whole cast
// array's index, then its first 5 checked); what each shares is worked out (keywords
// in lower case, as the index keys them) and scored in the statement, so only `limit` rows leave
// it, with their cards.
const COLD_SQL = `with shared as (
    select m.catalog_id, m.popularity,
           array(select x from unnest(m.genres) x where x = any($7::text[])) as sg,
           array(select lower(x) from unnest(m.keywords) x
                  where lower(x) = any(array(select lower(y) from unnest($4::text[]) y))) as sk,
           array(select x from unnest(m.directors) x where x = any($3::text[])) as sd,
           array(select x from unnest(m.actors[1:5]) x where x = any($5::text[])) as sa,
           case when m.collection_id = $6::int then coalesce(m.collection_name, '') end as sc,
           case when m.original_language = $8::text then $8::text end as sl,
           case when $9::int > 0 and m.year > 0 and m.year / 10 = $9::int / 10
             then ($9::int / 10 * 10)::text || 's' end as sy
      from public.movies m
     where m.catalog_id = any(array(
             select catalog_id from public.movies where collection_id = $6::int
             union select catalog_id from public.movies where directors && $3::text[]
             union select catalog_id from public.movies where keywords && $4::text[]
             union select catalog_id from public.movies where actors && $5::text[]))
       and m.catalog_id <> $1
       and (m.collection_id = $6::int or m.directors && $3::text[] or m.keywords && $4::text[]
            or m.actors[1:5] && $5::text[])),
  l as (
    select s.*, (case when s.sc is not null then ${KIND_WEIGHTS.c} else 0 end
           + ${KIND_WEIGHTS.d} * cardinality(s.sd) + ${KIND_WEIGHTS.k} * cardinality(s.sk)
           + ${KIND_WEIGHTS.a} * cardinality(s.sa) + ${KIND_WEIGHTS.g} * cardinality(s.sg)
           + case when s.sl is not null then ${KIND_WEIGHTS.l} else 0 end
           + case when s.sy is not null then ${KIND_WEIGHTS.y} else 0 end)::float8 as score
      from shared s
     order by score desc, s.popularity desc, s.catalog_id
     limit $2)
  select ${CARD_COLUMNS}, l.sc, l.sd, l.sk, l.sa, l.sg, l.sl, l.sy
    from l join public.movies m on m.catalog_id = l.catalog_id
   order by l.score desc, l.popularity desc, l.catalog_id`;

const texts = (v: unknown): string[] => ((v as unknown[] | null) ?? []).map(String);

/** The films most like `catalogId` by one statement; 404 `movie_not_found` when it is not stored. */
export async function similarFromStore(
  sql: Sql,
  catalogId: number,
  options: { limit: number },
): Promise<SimilarCard[]> {
  const [t] = await sql.query(TARGET_SQL, [catalogId]);
  if (!t) throw new Problem(404, "movie_not_found", "No stored movie has this id.");
  const rows = await sql.query(COLD_SQL, [
    catalogId,
    options.limit,
    t.directors,
    t.keywords,
    t.actors,
    t.collection_id ?? null,
    t.genres,
    t.original_language ?? null,
    Number(t.year),
  ]);
  return rows.map((r) => {
    const shared: { kind: FeatureKind; label: string; weight: number }[] = [];
    const add = (kind: FeatureKind, labels: string[]) => {
      for (const label of labels) shared.push({ kind, label, weight: KIND_WEIGHTS[kind] });
    };
    if (r.sc !== null && r.sc !== undefined) add("c", [String(r.sc)]);
    add("d", texts(r.sd));
    add("k", texts(r.sk));
    add("a", texts(r.sa));
    add("g", texts(r.sg));
    if (r.sl) add("l", [String(r.sl)]);
    if (r.sy) add("y", [String(r.sy)]);
    return { ...toCard(r), reasons: sharedReasons(shared) };
  });
}
