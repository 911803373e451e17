/**
 * A new-password input (signup, reset, change) that shows the strength estimate as the user
 * types. The estimator is the server's own (lib/identity/auth/strength.ts); its dictionaries are a
 * dynamic import, so the bundler puts them in a chunk that only loads once someone types here.
 */
import { useEffect, useState } from "preact/hooks";
import {
  estimateStrength,
  MIN_SCORE,
  type Strength,
  strengthWords,
} from "../lib/identity/auth/strength.ts";
// Estimate once typing pauses, not on every key.
const DEBOUNCE_MS = 150;

/** `email` counts as a word a guesser would try, as on the server. */
interface NewPasswordFieldProps {
  id: string;
  label: string;
  value: string;
  email?: string;
  onInput(value: string): void;
}

/** The labelled input, its length hint and the live strength meter. */
export function NewPasswordField(props: NewPasswordFieldProps) {
  const [strength, setStrength] = useState<Strength | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!props.value) return setStrength(null);
    let live = true;
    const timer = setTimeout(() => {
      estimateStrength(props.value, { email: props.email }).then(
        (result) => {
          if (!live) return;
          setStrength(result);
          setFailed(false);
        },
        // No meter if the chunk cannot load; the server still checks the password.
        (error) => {
          console.warn("The strength estimator did not load", error);
          if (live) setFailed(true);
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [props.value, props.email]);
  const hint = `${props.id}-hint`;
  // The estimate belongs to an earlier value while a new one is pending: keep showing it (no
  // flicker), and before the first one (the dictionaries take a moment) say what is happening.
  const words = strength ? strengthWords(strength.score) : null;
  const advice = strength && strength.score < MIN_SCORE
    ? [strength.warning, ...strength.suggestions].filter(Boolean).join(" ")
    : "";
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="password"
        name="password"
        autocomplete="new-password"
        required
        minLength={8}
        aria-describedby={hint}
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
      <p id={hint} class="hint">
        At least 8 characters, and not easy to guess: no common password, date or name of yours.
      </p>
      <div class="strength" aria-live="polite" data-score={strength?.score ?? ""}>
        {strength && words
          ? (
            <>
              <meter
                min={0}
                max={4}
                low={MIN_SCORE - 0.5}
                high={MIN_SCORE + 0.5}
                optimum={4}
                value={strength.score}
              />
              <span class="strength-word">{words.text}</span>
              {advice ? <span class="hint">{advice}</span> : null}
            </>
          )
          : props.value
          ? (
            <span class="strength-word">
              {failed
                ? "The strength check did not load; the password is checked when you submit."
                : "Checking how easy it is to guess…"}
            </span>
          )
          : null}
      </div>
    </div>
  );
}
