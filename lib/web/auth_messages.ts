/** What the sign-in and sign-up forms say when the server refuses, in plain words. */
import { ApiError } from "./api.ts";

/** The failure of supabase-js `signInWithPassword`, as much of it as the message needs. */
interface SignInFailure {
  code?: string;
  status?: number;
  message: string;
}

/** The message for a refused sign-in. */
export function signInMessage(error: SignInFailure): string {
  if (error.code === "invalid_credentials") return "Wrong email or password.";
  if (error.status === 429) return "Too many attempts. Wait a minute and try again.";
  return error.message || "Signing in failed. Please try again.";
}

/** The message for a refused sign-up (an existing email is handled before: it switches forms). */
export function signUpMessage(error: unknown): string {
  if (!(error instanceof ApiError)) return "Signing up failed. Please try again.";
  if (error.code === "captcha_failed") return "The captcha check failed. Please try it again.";
  return error.message;
}

/**
 * The server's message for a right code already used (lib/identity/mfa/service.ts,
 * `CODE_ALREADY_USED`; the browser may not import it): its code is a wrong code's.
 */
const CODE_ALREADY_USED = "TOTP code already used: wait for the next code";
/** The server's message for a backup code unknown or spent (`BACKUP_CODE_REFUSED` there). */
const BACKUP_CODE_REFUSED = "Backup code not valid or already used";

/** A refused two-factor code in plain words (supabase-js `mfa.verify` errors). */
export function codeMessage(code: string | undefined, fallback: string): string {
  if (code === "mfa_verification_failed" && fallback === CODE_ALREADY_USED) {
    return "That code was just used. Wait for the next code in your app, then enter it.";
  }
  if (code === "mfa_verification_failed" && fallback === BACKUP_CODE_REFUSED) {
    return "That backup code is not right or was used already: each works once.";
  }
  if (code === "mfa_verification_failed") return "That code is not right. Try the current one.";
  if (code === "mfa_factor_not_found" || code === "mfa_challenge_expired") {
    return "Too many wrong codes or too slow. Try again with the current code.";
  }
  if (code === "over_request_rate_limit") return "Too many attempts. Wait a few minutes.";
  return fallback || "The code could not be checked. Try again.";
}
