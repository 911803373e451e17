/**
 * Tonight's words turned into an interpretation by the AI (docs/recommend.md, "Tonight"): the
 * same providers, order and fallbacks as the recommendations (providers.ts), a strict JSON
 * schema as `response_format`, and an answer that is the interpretation or wraps it as
 * `{"interpretation":{...}}`, cleaned by cleanAiReading. The words are the user's only: no
 * history, no id, no email goes with them.
 */
import { MOVIE_GENRES } from "../../catalog/genres.ts";
import type { AppDeps } from "../../platform/deps.ts";
import { BadOutputError, contentJson } from "../parse_output.ts";
import { type ChatMessage, complete } from "../providers.ts";
import { type AiReading, cleanAiReading, INTERPRETATION_JSON_SCHEMA } from "./interpretation.ts";
import { MOOD_KEYS, MOODS } from "./moods.ts";

const SYSTEM = [
  "You turn what a viewer says they want to watch tonight into search filters for a film catalog.",
  "Answer with JSON only: one object with exactly the keys genres, excludeGenres, moods,",
  "runtimeMax, yearFrom, yearTo, languages, onlyMine, fromMyList, similarTo.",
  `genres and excludeGenres use only these names: ${[...MOVIE_GENRES.values()].join(", ")}.`,
  `moods use only these keys: ${
    MOOD_KEYS.map((k) => `${k} (${MOODS[k].label})`).join(", ")
  }; moods are soft preferences, genres are hard filters, so prefer a mood where the viewer`,
  "describes a feeling rather than a kind of film.",
  "runtimeMax is the longest runtime in minutes (1-1440) or null; yearFrom and yearTo are",
  "release years (1800-2200) or null; languages are ISO 639-1 codes of the original language",
  "(only when asked); onlyMine is true when the viewer wants only what they can stream on",
  "their services; fromMyList when they want a film from their saved list; similarTo lists at",
  'most 3 films named as examples, as {"title","year"}.',
  "Leave anything the viewer did not ask for empty, null or false.",
].join(" ");

/** Asks the providers to read `text`; throws the providers' Problem (502, 503) on failure. */
export async function askInterpretation(
  deps: AppDeps,
  text: string,
  options: { timeoutMs?: number } = {},
): Promise<AiReading> {
  const messages: ChatMessage[] = [
    { role: "system", content: SYSTEM },
    { role: "user", content: text.replace(/\s+/g, " ").trim() },
  ];
  return await complete(deps.config.aiProviders, messages, {
    fetch: deps.fetch,
    timeoutMs: options.timeoutMs,
    log: deps.log,
    responseFormat: { name: "tonight_interpretation", schema: INTERPRETATION_JSON_SCHEMA },
    parse: (content) => {
      const reading = cleanAiReading(contentJson(content));
      if (!reading) throw new BadOutputError("the interpretation is not an object");
      return reading;
    },
  });
}
