/**
 * The /tonight page (docs/recommend.md, "Tonight"): words, mood presets, a runtime limit, "only
 * what I can stream" and "from My List" sent to POST /api/tonight; the interpretation comes back
 * as chips, each a button that removes it and asks again with the filters alone (no AI, nothing
 * spent); the films as cards with their reasons. Every control is a native one, so the page
 * works by keyboard alone; focus never falls to the page when a chip goes.
 */
import { useState } from "preact/hooks";
import { TonightResults } from "../components/TonightResults.tsx";
import type { TonightAnswer } from "../lib/recommend/tonight/mod.ts";
import { api, ApiError } from "../lib/web/api.ts";
import { type Chip, chipsOf } from "../lib/web/tonight_chips.ts";
import { useFocusAfterRender } from "../lib/web/use_focus.ts";

/** What the page passes: the presets, whether services are chosen, whether an AI reads words. */
interface TonightProps {
  moods: { key: string; label: string }[];
  hasServices: boolean;
  aiReadsWords: boolean;
  imageBaseUrl: string;
}

const RUNTIMES = [90, 120, 150];
const TEXT_MAX = 300;

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
          <TonightResults
            answer={answer}
            chips={chips}
            asked={asked}
            busy={busy}
            imageBaseUrl={props.imageBaseUrl}
            onRemove={remove}
          />
        )
        : null}
    </div>
  );
}
