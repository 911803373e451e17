/** What the sign-in and sign-up forms say when the server refuses, in plain words. */
import { ApiError } from "./api.ts";

/** The failure of supabase-js `signInWithPassword`, as much of it as the message needs. */
export interface SignInFailure {
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
