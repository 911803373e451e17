/**
 * A new-password input (signup, reset, change) that shows the strength estimate as the user
 * types. The estimator is the server's own (lib/auth/strength.ts); its dictionaries are a
 * dynamic import, so the bundler puts them in a chunk that only loads once someone types here.
 */
import { useEffect, useState } from "preact/hooks";
import { estimateStrength, MIN_SCORE, type Strength } from "../lib/auth/strength.ts";

const WORDS = ["Very weak", "Weak", "Fair", "Strong", "Very strong"];
// Estimate once typing pauses, not on every key.
const DEBOUNCE_MS = 150;

/** `email` counts as a word a guesser would try, as on the server. */
export interface NewPasswordFieldProps {
  id: string;
  label: string;
  value: string;
  email?: string;
  onInput(value: string): void;
}

/** The labelled input, its length hint and the live strength meter. */
export function NewPasswordField(props: NewPasswordFieldProps) {
  const [strength, setStrength] = useState<Strength | null>(null);
  useEffect(() => {
    if (!props.value) return setStrength(null);
    let live = true;
    const timer = setTimeout(() => {
      estimateStrength(props.value, { email: props.email }).then(
        (result) => live && setStrength(result),
        // No meter if the chunk cannot load; the server still checks the password.
        (error) => console.warn("The strength estimator did not load", error),
      );
    }, DEBOUNCE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [props.value, props.email]);
  const hint = `${props.id}-hint`;
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
      <p id={hint} class="hint">At least 8 characters, and hard to guess.</p>
      <div class="strength" aria-live="polite" data-score={strength?.score ?? ""}>
        {strength
          ? (
            <>
              <meter min={0} max={4} low={2.5} high={3.5} optimum={4} value={strength.score} />
              <span class="strength-word">
                {WORDS[strength.score]}
                {strength.score < MIN_SCORE ? " — too easy to guess." : "."}
              </span>
              {advice ? <span class="hint">{advice}</span> : null}
            </>
          )
          : null}
      </div>
    </div>
  );
}
