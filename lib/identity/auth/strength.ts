/**
 * The password strength estimator (zxcvbn-ts with its common and English dictionaries), shared
 * by the server's password rule and the signup form's meter. The dictionaries are a megabyte of
 * JavaScript, so they are imported on the first estimate only: the server pays for them once,
 * and the browser bundle keeps them in a chunk that only the pages asking for it load.
 */
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

/**
 * The lowest zxcvbn score (0-4) a new password must reach. 3 would refuse every 8-character
 * password, random ones included (zxcvbn counts 10^8 guesses for them), so "at least 8
 * characters" would be untrue; 2 still refuses common passwords, keyboard walks, dates and the
 * email. The meter keeps encouraging more (docs/identity.md).
 */
export const MIN_SCORE = 2;

const WORDS = ["Very weak", "Weak", "Fair", "Strong", "Very strong"];

/**
 * The meter's words for a score, agreeing with the rule: a refused score says why, an accepted
 * one never says "too easy to guess" (the meter once showed "Fair — too easy to guess").
 */
export function strengthWords(score: number): { text: string; accepted: boolean } {
  const word = WORDS[Math.max(0, Math.min(4, Math.round(score)))];
  if (score < MIN_SCORE) return { text: `${word} — too easy to guess.`, accepted: false };
  if (score < 3) return { text: `${word} — good enough; a longer one is safer.`, accepted: true };
  return { text: `${word}.`, accepted: true };
}

/** What the estimator says about a password. */
export interface Strength {
  /** 0 (guessed at once) to 4 (very hard to guess). */
  score: number;
  /** Why it is weak ("" when nothing stands out). */
  warning: string;
  /** What would make it stronger. */
  suggestions: string[];
}

let factory: Promise<ZxcvbnFactory> | undefined;

function load(): Promise<ZxcvbnFactory> {
  factory ??= Promise.all([
    import("@zxcvbn-ts/core"),
    import("@zxcvbn-ts/language-common"),
    import("@zxcvbn-ts/language-en"),
  ]).then(([core, common, en]) =>
    new core.ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
    })
  ).catch((error) => {
    // A failed load (a chunk the browser could not fetch) may succeed on the next try.
    factory = undefined;
    throw error;
  });
  return factory;
}

/**
 * The words of an email that a guesser would try first: the local part, its pieces split at
 * dots, dashes, underscores and pluses, and the name pieces joined in either order
 * ("lena.brandt" -> "lenabrandt", "brandtlena"), since people drop the dot when they make a
 * password of their name.
 */
export function emailInputs(email: string): string[] {
  const local = email.trim().toLowerCase().split("@")[0] ?? "";
  if (!local) return [];
  const all = local.split(/[._+-]+/).filter(Boolean);
  const pieces = all.filter((p) => p.length >= 3);
  const joined = all.length > 1 ? [all.join(""), all.toReversed().join("")] : [];
  return [...new Set([local, ...pieces, ...joined])];
}

/** Estimates a password's strength, with the email's local part as a word to guess from. */
export async function estimateStrength(
  password: string,
  options: { email?: string } = {},
): Promise<Strength> {
  const zxcvbn = await load();
  const result = zxcvbn.check(password, emailInputs(options.email ?? ""));
  return {
    score: result.score,
    warning: result.feedback.warning ?? "",
    suggestions: result.feedback.suggestions ?? [],
  };
}
