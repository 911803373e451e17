/**
 * POST /api/tonight as a service (docs/recommend.md, "Tonight"): the words read by the AI (one
 * unit of the daily quota) or, without a provider, by the plain reading (keywords.ts); the
 * client's filters over them; then stored films scored by the local model inside the hard
 * filters, re-ranked by the moods, at most 20, each with its reasons. Watched and dismissed
 * films never appear. Filters alone spend nothing and ask no AI.
 */
import { CARD_COLUMNS, type MovieCard, toCard } from "../../catalog/cards.ts";
import { storedTitleMatches } from "../../catalog/title_match.ts";
import { describeError } from "../../core/log.ts";
import type { AppDeps } from "../../platform/deps.ts";
import type { Sql } from "../../platform/store/mod.ts";
import { quotaExceeded } from "../answers.ts";
import { localPicks } from "../local/mod.ts";
import { consumeQuota, quotaStatus, refundQuota } from "../quota.ts";
import { askInterpretation } from "./ask_ai.ts";
import {
  type AiReading,
  type AskedFilters,
  emptyInterpretation,
  fromFilters,
  type Interpretation,
  type NamedFilm,
  type SimilarFilm,
  type TonightBody,
} from "./interpretation.ts";
import { readWords } from "./keywords.ts";
import { type MoodFeatures, moodFit } from "./moods.ts";

/** Films Tonight answers at most. */
const TONIGHT_FILMS = 20;
// With moods, the local model's best this many are re-ranked by them.
const MOOD_POOL = 200;
// How much a perfect mood fit weighs against the best taste score (normalised to 1): more than
// taste, since the mood is what the user asked for tonight; taste orders the films that fit.
const MOOD_WEIGHT = 1.5;

/** A film of Tonight's answer: its card and why it was picked. */
interface TonightFilm extends MovieCard {
  reasons: string[];
}

/** The body of POST /api/tonight. */
export interface TonightAnswer {
  interpretation: Interpretation;
  movies: TonightFilm[];
  source: "local" | "ai";
}

/** Tonight for one user. */
export interface TonightService {
  tonight(userId: string, body: TonightBody): Promise<TonightAnswer>;
}

/** What Tonight needs beyond AppDeps. */
interface TonightOptions {
  /** Per provider attempt (tests shorten it). */
  timeoutMs?: number;
}

// The stored films named as examples: the same title key, the nearest year, then the most popular.
async function resolveNamed(sql: Sql, named: NamedFilm[]): Promise<SimilarFilm[]> {
  if (named.length === 0) return [];
  const matches = await storedTitleMatches(sql, named.map((n) => n.title));
  const chosen: number[] = [];
  named.forEach((film, index) => {
    const rank = (year: number) =>
      film.year === null ? 0 : year === film.year ? 0 : Math.abs(year - film.year) === 1 ? 1 : 9;
    const best = matches.filter((m) => m.index === index && rank(m.year) < 9)
      .sort((a, b) => rank(a.year) - rank(b.year) || b.popularity - a.popularity)[0];
    if (best && !chosen.includes(best.catalogId)) chosen.push(best.catalogId);
  });
  return await storedFilms(sql, chosen);
}

// Of `ids`, the films the store has a title for, in order (an id it lacks is left out).
async function storedFilms(sql: Sql, ids: number[]): Promise<SimilarFilm[]> {
  if (ids.length === 0) return [];
  const rows = await sql.query<{ catalogId: number; title: string }>(
    `select m.catalog_id as "catalogId", m.title
       from unnest($1::int[]) with ordinality as u(id, ord)
       join public.movies m on m.catalog_id = u.id
      where m.title <> ''
      order by u.ord`,
    [ids],
  );
  return rows.map((r) => ({ catalogId: Number(r.catalogId), title: r.title }));
}

async function moodFeatures(sql: Sql, ids: number[]): Promise<Map<number, MoodFeatures>> {
  const rows = await sql.query<
    { id: number; genres: string[]; keywords: string[] | null; runtime: number | null }
  >(
    `select catalog_id as id, genres, keywords, runtime
       from public.movies where catalog_id = any($1::int[])`,
    [ids],
  );
  return new Map(rows.map((r) => [Number(r.id), {
    genres: r.genres ?? [],
    keywords: r.keywords ?? [],
    runtime: Number(r.runtime ?? 0),
  }]));
}

// The cards of `ids` in order, never a film the user has watched or dismissed (the local model
// leaves them out already; this read holds the rule whatever it is given).
const CARDS_SQL = `select ${CARD_COLUMNS}
  from unnest($1::integer[]) with ordinality as l(catalog_id, ord)
  join public.movies m on m.catalog_id = l.catalog_id
  where not exists (select 1 from public.user_watched_movies w
                     where w.user_id = $2::uuid and w.catalog_id = l.catalog_id)
    and not exists (select 1 from public.user_dismissed_movies d
                     where d.user_id = $2::uuid and d.catalog_id = l.catalog_id)
  order by l.ord`;

/** Builds the Tonight service. */
export function createTonightService(deps: AppDeps, options: TonightOptions = {}): TonightService {
  const { store, kv, clock, log } = deps;

  // The words as the AI reads them (one unit), else the plain reading; any failure of the AI
  // gives the unit back and answers with the plain reading.
  async function read(userId: string, text: string): Promise<{ reading: AiReading; ai: boolean }> {
    if (deps.config.aiProviders.length === 0) return { reading: readWords(text), ai: false };
    const unit = await consumeQuota(kv, userId, { clock });
    if (!unit) throw quotaExceeded(await quotaStatus(kv, userId, { clock }), { now: clock.now() });
    try {
      return { reading: await askInterpretation(deps, text, options), ai: true };
    } catch (error) {
      log({
        level: "warn",
        msg: "tonight: the AI could not read the words",
        error: describeError(error),
      });
      await refundQuota(kv, unit).catch((e) =>
        log({ level: "warn", msg: "quota refund failed", error: describeError(e) })
      );
      return { reading: readWords(text), ai: false };
    }
  }

  async function interpret(
    userId: string,
    body: TonightBody,
  ): Promise<{ interpretation: Interpretation; source: "ai" | "local" }> {
    const text = body.text?.trim() ?? "";
    const { reading, ai } = text ? await read(userId, text) : { reading: null, ai: false };
    const asked: AskedFilters | null = body.filters ? fromFilters(body.filters) : null;
    const base: Interpretation = reading
      ? { ...reading, similarTo: await resolveNamed(store, reading.similarTo) }
      : emptyInterpretation();
    if (!asked || !body.filters) {
      return { interpretation: strip(base), source: ai ? "ai" : "local" };
    }
    // The keys the client sent win over what the words said.
    const merged: Interpretation = { ...base };
    for (const key of Object.keys(body.filters) as (keyof NonNullable<TonightBody["filters"]>)[]) {
      if (key === "similarTo") merged.similarTo = await storedFilms(store, asked.similarIds);
      else (merged as unknown as Record<string, unknown>)[key] = asked[key];
    }
    return { interpretation: strip(merged), source: ai ? "ai" : "local" };
  }

  async function films(userId: string, it: Interpretation): Promise<TonightFilm[]> {
    const pool = await localPicks(deps, userId, {
      limit: it.moods.length > 0 ? MOOD_POOL : TONIGHT_FILMS,
      onlyMine: it.onlyMine,
      fromMyList: it.fromMyList,
      filter: {
        genres: it.genres,
        excludeGenres: it.excludeGenres,
        runtimeMax: it.runtimeMax,
        yearFrom: it.yearFrom,
        yearTo: it.yearTo,
        languages: it.languages,
        similarTo: it.similarTo.map((s) => s.catalogId),
      },
      exclude: [],
    });
    let ranked = pool.map((p) => ({ ...p, reasons: [...p.reasons] }));
    if (it.moods.length > 0 && ranked.length > 0) {
      const features = await moodFeatures(store, ranked.map((p) => p.catalogId));
      const top = Math.max(...ranked.map((p) => p.score), 1e-9);
      ranked = ranked.map((p) => {
        const film = features.get(p.catalogId) ?? { genres: [], keywords: [], runtime: 0 };
        const fits = it.moods.map((m) => moodFit(m, film));
        const fit = fits.reduce((n, f) => n + f.fit, 0) / fits.length;
        const moodReasons = fits.flatMap((f) => (f.reason ? [f.reason] : []));
        return {
          ...p,
          score: Math.max(p.score, 0) / top + MOOD_WEIGHT * fit,
          reasons: [...moodReasons, ...p.reasons],
        };
      }).sort((a, b) => b.score - a.score || a.catalogId - b.catalogId);
    }
    const chosen = ranked.slice(0, TONIGHT_FILMS);
    const reasons = new Map(chosen.map((p) => [p.catalogId, p.reasons.slice(0, 4)]));
    const rows = await store.asUser(
      userId,
      (tx) => tx.query(CARDS_SQL, [chosen.map((p) => p.catalogId), userId]),
    );
    return rows.map((row) => {
      const card = toCard(row);
      return { ...card, reasons: reasons.get(card.catalogId) ?? [] };
    });
  }

  return {
    async tonight(userId, body) {
      const { interpretation, source } = await interpret(userId, body);
      return { interpretation, movies: await films(userId, interpretation), source };
    },
  };
}

// Only the interpretation's keys, whatever a reading carried.
function strip(it: Interpretation): Interpretation {
  return {
    genres: it.genres,
    excludeGenres: it.excludeGenres,
    moods: it.moods,
    runtimeMax: it.runtimeMax,
    yearFrom: it.yearFrom,
    yearTo: it.yearTo,
    languages: it.languages,
    onlyMine: it.onlyMine,
    fromMyList: it.fromMyList,
    similarTo: it.similarTo,
  };
}
