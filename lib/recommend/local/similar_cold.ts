/**
 * "More like this" before the index is built (docs/recommend.md, "Local picks", "A cold start"):
 * one statement over the page's film's own features. Candidates share something telling with it
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

// The shared features per candidate (keywords compared in lower case, as the index keys them),
// scored in the statement so only `limit` rows leave it, with their cards.
const COLD_SQL = `with t as (
    select catalog_id, coalesce(genres, '{}') as g,
           array(select lower(x) from unnest(coalesce(keywords, '{}')) x) as k,
           coalesce(keywords, '{}') as kr,
           coalesce(directors, '{}') as d, coalesce(actors[1:5], '{}') as a,
           collection_id as c, original_language as l, coalesce(year, 0) as y
      from public.movies where catalog_id = $1),
  shared as (
    select m.catalog_id, m.popularity,
           array(select x from unnest(m.genres) x where x = any(t.g)) as sg,
           array(select lower(x) from unnest(m.keywords) x where lower(x) = any(t.k)) as sk,
           array(select x from unnest(m.directors) x where x = any(t.d)) as sd,
           array(select x from unnest(m.actors[1:5]) x where x = any(t.a)) as sa,
           case when m.collection_id = t.c then coalesce(m.collection_name, '') end as sc,
           case when m.original_language = t.l then t.l end as sl,
           case when t.y > 0 and m.year > 0 and m.year / 10 = t.y / 10
             then (t.y / 10 * 10)::text || 's' end as sy
      from public.movies m cross join t
     where m.catalog_id <> t.catalog_id
       and (m.collection_id = t.c or m.directors && t.d or m.keywords && t.kr
            or m.actors[1:5] && t.a)),
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
  const rows = await sql.query(COLD_SQL, [catalogId, options.limit]);
  if (rows.length === 0) {
    const [stored] = await sql.query(`select 1 from public.movies where catalog_id = $1`, [
      catalogId,
    ]);
    if (!stored) throw new Problem(404, "movie_not_found", "No stored movie has this id.");
    return [];
  }
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
