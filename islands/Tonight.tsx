/**
 * The /tonight page (docs/recommend.md, "Tonight"): words, mood presets, a runtime limit, "only
 * what I can stream" and "from My List" sent to POST /api/tonight; the interpretation comes back
 * as chips, each a button that removes it and asks again with the filters alone (no AI, nothing
 * spent); the films as cards with their reasons. Every control is a native one, so the page
 * works by keyboard alone; focus never falls to the page when a chip goes.
 */
import { useState } from "preact/hooks";
import { MovieGrid } from "../components/MovieGrid.tsx";
import { cardFacts, MovieCard } from "../components/MovieCard.tsx";
import type { Interpretation, TonightAnswer } from "../lib/recommend/tonight/mod.ts";
import { api, ApiError } from "../lib/web/api.ts";
import { cardPosterUrl } from "../lib/web/poster.ts";
import { useFocusAfterRender } from "../lib/web/use_focus.ts";

/** What the page passes: the presets, whether services are chosen, whether an AI reads words. */
interface TonightProps {
  moods: { key: string; label: string }[];
  hasServices: boolean;
  aiReadsWords: boolean;
  imageBaseUrl: string;
}

/** One removable chip: its label and the interpretation without it. */
interface Chip {
  id: string;
  label: string;
  without: (it: Interpretation) => Interpretation;
}

const RUNTIMES = [90, 120, 150];
const TEXT_MAX = 300;

const languageNames = (() => {
  try {
    return new Intl.DisplayNames(["en"], { type: "language" });
  } catch {
    return null;
  }
})();

function chipsOf(it: Interpretation, moodLabel: (key: string) => string): Chip[] {
  const chips: Chip[] = [];
  const drop = <K extends keyof Interpretation>(key: K, value: unknown) => (i: Interpretation) => ({
    ...i,
    [key]: (i[key] as unknown[]).filter((v) => v !== value),
  });
  for (const g of it.genres) chips.push({ id: `g-${g}`, label: g, without: drop("genres", g) });
  for (const g of it.excludeGenres) {
    chips.push({ id: `x-${g}`, label: `No ${g}`, without: drop("excludeGenres", g) });
  }
  for (const m of it.moods) {
    chips.push({ id: `m-${m}`, label: moodLabel(m), without: drop("moods", m) });
  }
  if (it.runtimeMax !== null) {
    chips.push({
      id: "runtime",
      label: `Up to ${it.runtimeMax} min`,
      without: (i) => ({ ...i, runtimeMax: null }),
    });
  }
  if (it.yearFrom !== null || it.yearTo !== null) {
    const label = it.yearFrom !== null && it.yearTo !== null
      ? `${it.yearFrom}–${it.yearTo}`
      : it.yearFrom !== null
      ? `From ${it.yearFrom}`
      : `Up to ${it.yearTo}`;
    chips.push({ id: "years", label, without: (i) => ({ ...i, yearFrom: null, yearTo: null }) });
  }
  for (const l of it.languages) {
    chips.push({
      id: `l-${l}`,
      label: `In ${languageNames?.of(l) ?? l}`,
      without: drop("languages", l),
    });
  }
  if (it.onlyMine) {
    chips.push({
      id: "mine",
      label: "Only what I can stream",
      without: (i) => ({ ...i, onlyMine: false }),
    });
  }
  if (it.fromMyList) {
    chips.push({
      id: "list",
      label: "From My List",
      without: (i) => ({ ...i, fromMyList: false }),
    });
  }
  for (const s of it.similarTo) {
    chips.push({
      id: `s-${s.catalogId}`,
      label: `Like ${s.title}`,
      without: (i) => ({ ...i, similarTo: i.similarTo.filter((x) => x.catalogId !== s.catalogId) }),
    });
  }
  return chips;
}

/** The form, the chips and the films. */
export default function Tonight(props: TonightProps) {
  const [text, setText] = useState("");
  const [moods, setMoods] = useState<string[]>([]);
  const [runtime, setRuntime] = useState("");
  const [onlyMine, setOnlyMine] = useState(false);
  const [fromMyList, setFromMyList] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<TonightAnswer | null>(null);
  const [asked, setAsked] = useState<"words" | "filters" | null>(null);
  const focusNext = useFocusAfterRender();
  const moodLabel = (key: string) => props.moods.find((m) => m.key === key)?.label ?? key;

  async function ask(body: Record<string, unknown>, kind: "words" | "filters") {
    if (busy) return false;
    setBusy(true);
    setError(null);
    try {
      const { data } = await api<TonightAnswer>("/api/tonight", {
        method: "POST",
        auth: true,
        body,
      });
      setAnswer(data);
      setAsked(kind);
      // The controls show what was understood, so the next search starts from it.
      const it = data.interpretation;
      setMoods(it.moods);
      setRuntime(it.runtimeMax === null ? "" : String(it.runtimeMax));
      setOnlyMine(it.onlyMine);
      setFromMyList(it.fromMyList);
      return true;
    } catch (e) {
      setError(e instanceof ApiError ? e.message : "The search failed; please try again.");
      return false;
    } finally {
      setBusy(false);
    }
  }

  function submit(event: Event) {
    event.preventDefault();
    // Only what the user set goes as filters, so the words decide the rest.
    const filters: Record<string, unknown> = {};
    if (moods.length) filters.moods = moods;
    if (runtime) filters.runtimeMax = Number(runtime);
    if (onlyMine) filters.onlyMine = true;
    if (fromMyList) filters.fromMyList = true;
    const words = text.trim();
    const body: Record<string, unknown> = {};
    if (words) body.text = words;
    if (Object.keys(filters).length) body.filters = filters;
    ask(body, words ? "words" : "filters");
  }

  async function remove(chip: Chip, index: number, count: number) {
    if (!answer) return;
    const next = chip.without(answer.interpretation);
    const done = await ask({ filters: next }, "filters");
    if (!done) return;
    // Focus goes to the chip now in its place, else the one before, else the results' status.
    focusNext(
      count > 1
        ? `#tonight-chips li:nth-child(${Math.min(index + 1, count - 1)}) button`
        : "#tonight-results-status",
    );
  }

  const toggleMood = (key: string) =>
    setMoods((m) => (m.includes(key) ? m.filter((k) => k !== key) : [...m, key]));
  const chips = answer ? chipsOf(answer.interpretation, moodLabel) : [];
  const runtimes = runtime && !RUNTIMES.includes(Number(runtime))
    ? [...RUNTIMES, Number(runtime)].sort((a, b) => a - b)
    : RUNTIMES;

  return (
    <div class="tonight">
      <form class="tonight-form" onSubmit={submit}>
        <label for="tonight-text">What are you in the mood for?</label>
        <input
          id="tonight-text"
          name="text"
          type="text"
          maxLength={TEXT_MAX}
          value={text}
          placeholder="Something tense from the 90s, under two hours"
          aria-describedby="tonight-text-hint"
          onInput={(e) => setText((e.target as HTMLInputElement).value)}
        />
        <p class="hint" id="tonight-text-hint">
          {props.aiReadsWords
            ? "Your words are read by the AI, which uses one of today's recommendation requests. The presets and switches alone use none."
            : "This server has no AI, so your words are read simply: genres, moods, a runtime, decades and languages. Nothing is used up."}
        </p>
        <fieldset class="tonight-moods">
          <legend>Moods</legend>
          <div class="button-row">
            {props.moods.map((m) => (
              <button
                key={m.key}
                type="button"
                class={moods.includes(m.key)
                  ? "button button-small button-on"
                  : "button button-small button-quiet"}
                aria-pressed={moods.includes(m.key)}
                onClick={() => toggleMood(m.key)}
              >
                {m.label}
              </button>
            ))}
          </div>
        </fieldset>
        <div class="tonight-limits">
          <label for="tonight-runtime">Runtime</label>
          <select
            id="tonight-runtime"
            name="runtimeMax"
            value={runtime}
            onChange={(e) => setRuntime((e.target as HTMLSelectElement).value)}
          >
            <option value="">Any length</option>
            {runtimes.map((r) => <option key={r} value={String(r)}>Up to {r} minutes</option>)}
          </select>
          {props.hasServices
            ? (
              <label class="switch">
                <input
                  type="checkbox"
                  name="onlyMine"
                  checked={onlyMine}
                  onChange={(e) => setOnlyMine((e.target as HTMLInputElement).checked)}
                />
                Only what I can stream
              </label>
            )
            : (
              <p class="hint">
                To keep to what you can stream,{" "}
                <a href="/account#services-heading">choose your services</a>.
              </p>
            )}
          <label class="switch">
            <input
              type="checkbox"
              name="fromMyList"
              checked={fromMyList}
              onChange={(e) => setFromMyList((e.target as HTMLInputElement).checked)}
            />
            From My List
          </label>
        </div>
        <button type="submit" class="button" aria-disabled={busy ? "true" : undefined}>
          {busy ? "Finding films…" : "Find films"}
        </button>
      </form>
      {error ? <div class="notice notice-error" role="alert">{error}</div> : null}
      {answer
        ? (
          <section class="tonight-results" aria-labelledby="tonight-results-heading">
            <h2 id="tonight-results-heading">For tonight</h2>
            {chips.length
              ? (
                <>
                  <p class="hint" id="tonight-chips-hint">
                    {asked === "words" && answer.source === "ai"
                      ? "How the AI read your words."
                      : asked === "words"
                      ? "How your words were read (without the AI)."
                      : "Your filters."}{" "}
                    Remove one to search again without it (no AI, nothing used up).
                  </p>
                  <ul class="chips tonight-chips" id="tonight-chips" aria-label="Filters">
                    {chips.map((chip, i) => (
                      <li key={chip.id}>
                        <button
                          type="button"
                          class="chip-remove"
                          aria-label={`Remove ${chip.label}`}
                          aria-describedby="tonight-chips-hint"
                          onClick={() => remove(chip, i, chips.length)}
                        >
                          {chip.label} <span aria-hidden="true">×</span>
                        </button>
                      </li>
                    ))}
                  </ul>
                </>
              )
              : null}
            <p class="status" role="status" id="tonight-results-status" tabIndex={-1}>
              {busy
                ? "Searching…"
                : answer.movies.length
                ? `${answer.movies.length} ${answer.movies.length === 1 ? "film" : "films"}.`
                : "No film here fits all of that. Remove a filter to widen the search."}
            </p>
            {answer.movies.length
              ? (
                <MovieGrid label="Films for tonight">
                  {answer.movies.map((m) => (
                    <MovieCard
                      key={m.catalogId}
                      id={m.catalogId}
                      title={m.title}
                      level={3}
                      posterUrl={cardPosterUrl(props.imageBaseUrl, m.posterPath)}
                      facts={cardFacts(m.year, m.genres) +
                        (m.runtime > 0 ? ` · ${m.runtime} min` : "")}
                      reason={m.reasons.join(" · ")}
                    />
                  ))}
                </MovieGrid>
              )
              : null}
          </section>
        )
        : null}
    </div>
  );
}
