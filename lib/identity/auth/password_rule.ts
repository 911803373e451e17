/**
 * The rule every new password meets (docs/identity.md): 8 characters to 72 UTF-8 bytes,
 * well-formed Unicode, and a zxcvbn score of at least 2 of 4 with the email's local part
 * counted as a word a guesser would try. Signup, the password change and the reset all apply it.
 */
import { estimateStrength, MIN_SCORE } from "./strength.ts";

/** Fewest characters (code points) of a password. */
export const PASSWORD_MIN_CHARS = 8;
/** Most bytes (UTF-8) of a password: bcrypt ignores everything past 72 bytes. */
export const PASSWORD_MAX_BYTES = 72;

/** Why a password is refused: too short or long, not text, or too easy to guess. */
type PasswordFault =
  | { kind: "too_short" | "too_long" | "ill_formed"; message: string }
  | { kind: "weak"; message: string; score: number };

/** The length and encoding rules alone (today's rules); null when they hold. */
export function passwordShapeFault(password: string): PasswordFault | null {
  if ([...password].length < PASSWORD_MIN_CHARS) {
    return {
      kind: "too_short",
      message: `Password should be at least ${PASSWORD_MIN_CHARS} characters.`,
    };
  }
  if (new TextEncoder().encode(password).byteLength > PASSWORD_MAX_BYTES) {
    return {
      kind: "too_long",
      message: `Password cannot be longer than ${PASSWORD_MAX_BYTES} bytes (72 ASCII characters).`,
    };
  }
  // bcryptjs hashes a lone surrogate as itself, Supabase (Go) as U+FFFD: such a hash would
  // not verify once the account moves to Supabase Auth.
  if (!password.isWellFormed()) {
    return { kind: "ill_formed", message: "Password must be well-formed Unicode text." };
  }
  return null;
}

/** The estimator's verdict alone; null when the password is strong enough. */
export async function passwordStrengthFault(
  password: string,
  options: { email: string },
): Promise<PasswordFault | null> {
  const strength = await estimateStrength(password, { email: options.email });
  if (strength.score >= MIN_SCORE) return null;
  const advice = [strength.warning, ...strength.suggestions].filter(Boolean).join(" ");
  return {
    kind: "weak",
    score: strength.score,
    message: `This password is too easy to guess. ${
      advice || "Add more words that are less common."
    }`,
  };
}

/** Every rule in order: the shape first, then the estimate. Null when the password is good. */
export async function newPasswordFault(
  password: string,
  options: { email: string },
): Promise<PasswordFault | null> {
  return passwordShapeFault(password) ?? await passwordStrengthFault(password, options);
}
