/**
 * One generation: up to 3 AI rounds, each resolving the candidates to catalog ids and keeping
 * only valid ones (never watched or dismissed, never the previous set with getNew, no
 * duplicates, at most 2 My List movies, placed last), until at least 5 remain; at most 20 are
 * kept, each with the AI's reason as it came (the service cleans it).
 */
import { Problem } from "../core/problem.ts";
import type { Candidate } from "./parse_output.ts";
import type { ChatMessage } from "./providers.ts";
import { buildMessages, candidatesMessage, label } from "./prompt.ts";
import {
  type FeedbackTitles,
  withFeedback,
  withinBound,
  withReasonsAndDismissed,
} from "./prompt_extras.ts";
import { type LocalCandidate, matchCandidates } from "./candidates.ts";
import { type StreamingFilter, withServices } from "./streaming.ts";
import type { Taste } from "./taste.ts";

/** Fewest recommendations a generation may end with. */
const MIN_RESULTS = 5;
/** Most recommendations stored and returned. */
const MAX_RESULTS = 20;
/** Most My List movies among them. */
const MAX_MY_LIST = 2;
/** AI rounds per generation. */
const ROUNDS = 3;

/** What a generation is done with. */
interface GenerateOptions {
  /** Asks the AI (all providers) and returns its parsed candidates. */
  ask: (messages: ChatMessage[]) => Promise<Candidate[]>;
  /** Resolves candidates to catalog ids (null: unresolved), in order. */
  resolve: (candidates: Candidate[]) => Promise<(number | null)[]>;
  /** The previous set, excluded (getNew). */
  previousIds?: number[];
  /** Its titles, so the AI is told to avoid them. */
  previousTitles?: string[];
  /** Movies the user dismissed: never kept, as watched ones. */
  dismissedIds?: number[];
  /** Their titles, listed to the AI as "not interested". */
  dismissedTitles?: string[];
  /** "Only what I can stream": picks not available to the user are dropped. */
  streaming?: StreamingFilter;
  /** The two stages: the local recommender's candidates, best first (none: the AI alone). */
  candidates?: LocalCandidate[];
  /** The user's 👍/👎 titles. */
  feedback?: FeedbackTitles;
}

/** One kept pick: its catalog id and the AI's reason, uncleaned. */
export interface Pick {
  catalogId: number;
  reason: string;
}

/** Generates between 5 and 20 picks for `taste`; 502 `ai_bad_output` when fewer are valid. */
export async function generate(taste: Taste, options: GenerateOptions): Promise<Pick[]> {
  const watched = new Set([...taste.watchedIds, ...(options.dismissedIds ?? [])]);
  const previous = new Set(options.previousIds ?? []);
  const myList = new Set(taste.myListIds);
  const seen = new Set<number>();
  const others: Pick[] = [];
  const saved: Pick[] = [];
  // Everything the AI should not propose again: the previous set, rejects, and what is kept.
  const avoid: string[] = [...(options.previousTitles ?? [])];

  for (let round = 1; round <= ROUNDS; round++) {
    const want = Math.min(30, MAX_RESULTS + 5 * (round - 1));
    const profile = withServices(
      withFeedback(
        withReasonsAndDismissed(buildMessages(taste, { want, avoid }), {
          notInterested: options.dismissedTitles ?? [],
        }),
        options.feedback,
      ),
      options.streaming,
    );
    const local = options.candidates ?? [];
    const candidates = await options.ask(
      withinBound(
        local.length > 0 ? [...profile, candidatesMessage(local.map(label), { want })] : profile,
      ),
    );
    // A title naming one of the candidates is that candidate; the others resolve as always.
    const ids = matchCandidates(candidates, local);
    const open = ids.flatMap((id, i) => (id === null ? [i] : []));
    if (open.length > 0) {
      const resolved = await options.resolve(open.map((i) => candidates[i]));
      open.forEach((at, i) => ids[at] = resolved[i]);
    }
    if (options.streaming) {
      const open = ids.filter((id): id is number =>
        typeof id === "number" && !watched.has(id) && !previous.has(id) && !seen.has(id)
      );
      const available = await options.streaming.keep([...new Set(open)]);
      ids.forEach((id, i) => {
        if (typeof id === "number" && !available.has(id)) ids[i] = null;
      });
    }
    candidates.forEach((candidate, i) => {
      const id = ids[i];
      avoid.push(label(candidate));
      if (id === null || id === undefined || watched.has(id) || previous.has(id) || seen.has(id)) {
        return;
      }
      seen.add(id);
      const pick = { catalogId: id, reason: candidate.reason };
      if (myList.has(id)) {
        if (saved.length < MAX_MY_LIST) saved.push(pick);
      } else {
        others.push(pick);
      }
    });
    if (others.length + saved.length >= MIN_RESULTS) break;
  }

  const total = others.length + saved.length;
  if (total < MIN_RESULTS) {
    throw new Problem(
      502,
      "ai_bad_output",
      // Plain words: the website and API clients show this as it is (issue 16).
      `Only ${total} of the suggested movies could be used after ${ROUNDS} tries, and at least ` +
        `${MIN_RESULTS} are needed. This used one of today's requests; please try again later.`,
    );
  }
  return [...others.slice(0, MAX_RESULTS - saved.length), ...saved];
}
