/**
 * Password reset of the built-in provider: `POST /auth/v1/recover` mails a single-use link
 * (or, without SMTP, logs it once at warn for the operator), and `/auth/v1/verify` with
 * `type=recovery` spends the link's token and signs the user in, so the reset page can set a
 * new password with `PUT /auth/v1/user`.
 */
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { describeError } from "../log.ts";
import type { Mailer } from "../mail/mod.ts";
import { limitSubject } from "./limit_subject.ts";
import { GoTrueError } from "./gotrue_error.ts";
import { type IssueToken, type SessionResponse, sessionResponse } from "./grants.ts";
import { takeAttempt, type WindowLimit } from "./rate_limit.ts";
import { issueRecoveryToken, redeemRecoveryToken } from "./recovery_tokens.ts";
import { resetLink, resetMail } from "./reset_mail.ts";
import { startSession } from "./sessions.ts";
import { findUserByEmail, findUserById, touchSignIn, type UserRow } from "./users.ts";

const HOUR = 60 * 60_000;
/** Reset mails per email address. */
export const RECOVER_PER_EMAIL: WindowLimit = { name: "recover_email", limit: 3, windowMs: HOUR };
/** Reset requests per client address. */
export const RECOVER_PER_ADDRESS: WindowLimit = {
  name: "recover_address",
  limit: 20,
  windowMs: HOUR,
};

const recoverBody = z.object({ email: z.string().optional() });
const verifyParams = z.object({
  type: z.string().optional(),
  token_hash: z.string().optional(),
  token: z.string().optional(),
});

// Mails still being sent, per app: the answer does not wait for them (its timing would tell
// whether the email has an account), but tests and shutdown can.
const pending = new WeakMap<AppDeps, Set<Promise<void>>>();

/** Resolves once every reset mail this app started has been sent or has failed. */
export async function resetMailsSettled(deps: AppDeps): Promise<void> {
  while (pending.get(deps)?.size) await Promise.allSettled([...pending.get(deps)!]);
}

async function sendResetLink(deps: AppDeps, user: UserRow, mailer: Mailer | undefined) {
  try {
    const token = await issueRecoveryToken(deps.store, user.id, { now: deps.clock.now() });
    const link = resetLink(deps.config.siteUrl, token);
    if (!mailer) {
      // The documented operator line: the only log line that ever holds a reset link.
      deps.log({
        level: "warn",
        event: "password_reset_link",
        message: "SMTP_URL is not set: pass this password reset link to its owner yourself.",
        to: user.email,
        link,
      });
      return;
    }
    await mailer.send(resetMail(user.email, link, { siteUrl: deps.config.siteUrl }));
  } catch (error) {
    deps.log({
      level: "error",
      event: "password_reset_mail_failed",
      userId: user.id,
      error: describeError(error),
    });
  }
}

/**
 * `POST /auth/v1/recover`: always answers (nothing), whether or not the email has an account.
 * Past 3 requests per email or 20 per address in an hour, it silently sends nothing.
 */
export async function requestPasswordReset(
  deps: AppDeps,
  body: unknown,
  options: { clientAddress: string; mailer?: Mailer },
): Promise<void> {
  const parsed = recoverBody.safeParse(body);
  const email = parsed.success ? parsed.data.email?.trim().toLowerCase() : undefined;
  if (!email) {
    throw new GoTrueError(400, "validation_failed", "Password recovery requires an email");
  }
  if (email.length > 254 || !z.email().safeParse(email).success) {
    throw new GoTrueError(
      400,
      "validation_failed",
      "Unable to validate email address: invalid format",
    );
  }
  const attempt = await takeAttempt(deps.kv, [
    { limit: RECOVER_PER_EMAIL, subject: email },
    { limit: RECOVER_PER_ADDRESS, subject: limitSubject(options.clientAddress) },
  ], { clock: deps.clock });
  if (!attempt.allowed) return;
  const user = await findUserByEmail(deps.store, email);
  if (!user) return;
  let set = pending.get(deps);
  if (!set) pending.set(deps, set = new Set());
  const sending = sendResetLink(deps, user, options.mailer);
  set.add(sending);
  sending.finally(() => set.delete(sending));
}

/** The 403 of a spent, expired or unknown link, as GoTrue answers it. */
export function otpExpired(): GoTrueError {
  return new GoTrueError(403, "otp_expired", "Token has expired or is invalid");
}

/**
 * `/auth/v1/verify` with `type=recovery` and the link's token (`token_hash`, or `token` as
 * GET links carry it): spends the token and starts a session. 403 `otp_expired` for a token
 * spent, older than an hour or unknown.
 */
export async function verifyRecovery(
  deps: AppDeps,
  params: unknown,
  options: { issue: IssueToken },
): Promise<SessionResponse> {
  const parsed = verifyParams.safeParse(params);
  const { type, token_hash, token } = parsed.success ? parsed.data : {};
  if (!type) throw new GoTrueError(400, "validation_failed", "Verify requires a verification type");
  if (type !== "recovery") {
    throw new GoTrueError(400, "validation_failed", "Unsupported verification type");
  }
  const secret = token_hash || token;
  if (!secret) {
    throw new GoTrueError(
      400,
      "validation_failed",
      "Verify requires either a token or a token hash",
    );
  }
  const now = deps.clock.now();
  const userId = await redeemRecoveryToken(deps.store, secret, { now });
  const user = userId ? await findUserById(deps.store, userId) : null;
  if (!user) throw otpExpired();
  const session = await startSession(deps.store, user.id, { now });
  const signedIn = await touchSignIn(deps.store, user.id, { now });
  return await sessionResponse(deps.store, signedIn, {
    issue: options.issue,
    session,
    method: "recovery",
    now,
  });
}

/**
 * Where `GET /auth/v1/verify` sends the browser, as GoTrue does: `redirect_to` when it is on
 * this site (anything else would make the link an open redirect), else /reset-password, with
 * the session, or the error, in the URL fragment (never sent to a server, never in a log).
 */
export function recoveryRedirect(
  siteUrl: string,
  redirectTo: string | undefined,
  outcome: SessionResponse | GoTrueError,
): string {
  let target = `${siteUrl}/reset-password`;
  try {
    const wanted = new URL(redirectTo ?? "", siteUrl);
    if (redirectTo && wanted.origin === new URL(siteUrl).origin) target = wanted.href;
  } catch {
    // not a URL: the default page
  }
  target = target.replace(/#.*$/, "");
  const fragment = outcome instanceof GoTrueError
    ? new URLSearchParams({
      error: "access_denied",
      error_code: outcome.code,
      error_description: outcome.code === "otp_expired"
        ? "Email link is invalid or has expired"
        : outcome.message,
    })
    : new URLSearchParams({
      access_token: outcome.access_token,
      expires_at: String(outcome.expires_at),
      expires_in: String(outcome.expires_in),
      refresh_token: outcome.refresh_token,
      token_type: "bearer",
      type: "recovery",
    });
  return `${target}#${fragment}`;
}
