/**
 * The password strength estimator (zxcvbn-ts with its common and English dictionaries), shared
 * by the server's password rule and the signup form's meter. The dictionaries are a megabyte of
 * JavaScript, so they are imported on the first estimate only: the server pays for them once,
 * and the browser bundle keeps them in a chunk that only the pages asking for it load.
 */
import type { ZxcvbnFactory } from "@zxcvbn-ts/core";

/** The lowest zxcvbn score (0-4) a new password must reach. */
export const MIN_SCORE = 3;

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
 * The words of an email that a guesser would try first: the local part, and its pieces split
 * at dots, dashes, underscores and pluses.
 */
export function emailInputs(email: string): string[] {
  const local = email.trim().toLowerCase().split("@")[0] ?? "";
  if (!local) return [];
  const pieces = local.split(/[._+-]+/).filter((p) => p.length >= 3);
  return [...new Set([local, ...pieces])];
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
