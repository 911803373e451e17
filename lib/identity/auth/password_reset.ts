/**
 * Password reset of the built-in provider: `POST /auth/v1/recover` mails a single-use link
 * (or, without SMTP, logs it once at warn for the operator), and `/auth/v1/verify` with
 * `type=recovery` spends the link's token and signs the user in, so the reset page can set a
 * new password with `PUT /auth/v1/user`.
 */
import { z } from "zod";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { describeError } from "@/lib/core/log.ts";
import type { Mailer } from "@/lib/platform/mail/mod.ts";
import { limitSubject } from "./limit_subject.ts";
import { GoTrueError } from "./gotrue_error.ts";
import { type IssueToken, type SessionResponse, sessionResponse } from "./grants.ts";
import { takeAttempt, type WindowLimit } from "./rate_limit.ts";
import { issueRecoveryToken, redeemRecoveryToken } from "./recovery_tokens.ts";
import { resetLink, resetMail } from "./reset_mail.ts";
import { startSession } from "./sessions.ts";
import { confirmEmail, findUserByEmail, findUserById, touchSignIn, type UserRow } from "./users.ts";

const HOUR = 60 * 60_000;
/** Reset mails per email address. */
const RECOVER_PER_EMAIL: WindowLimit = { name: "recover_email", limit: 3, windowMs: HOUR };
/** Reset requests per client address. */
const RECOVER_PER_ADDRESS: WindowLimit = {
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

// Reset requests still being worked on, per app: the answer does not wait for them (its timing
// would tell whether the email has an account), but tests and shutdown can.
const pending = new WeakMap<AppDeps, Set<Promise<void>>>();
// The last request whose limits are being taken, per app.
const limitTail = new WeakMap<AppDeps, Promise<void>>();

/** Resolves once every reset request this app took has been mailed, refused or has failed. */
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
 * `POST /auth/v1/recover`: always answers (nothing), whether or not the email has an account,
 * before any lookup (it returns once the email's shape is checked; the work is scheduled). Past
 * 3 requests per email or 20 per address in an hour, nothing is sent.
 */
export function requestPasswordReset(
  deps: AppDeps,
  body: unknown,
  options: { clientAddress: string; mailer?: Mailer },
): void {
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
  // Everything past the email's shape runs after the answer, for every email alike: the
  // limits, the account lookup and the mail. The response path is then the same work whether
  // or not the email has an account, so its timing tells nothing (a lookup or token insert
  // before answering made existing emails measurably slower).
  let set = pending.get(deps);
  if (!set) pending.set(deps, set = new Set());
  // The limits are taken one request at a time, in the order the requests came (the 21st
  // request from an address is the one refused); lookups and mails then run side by side.
  const counted = (limitTail.get(deps) ?? Promise.resolve())
    .then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)))
    .then(() => takeLimits(deps, email, options.clientAddress));
  limitTail.set(deps, counted.then(() => {}, () => {}));
  const work = counted.then((allowed) => allowed ? deliverReset(deps, email, options) : undefined);
  set.add(work);
  work.finally(() => set.delete(work));
}

async function takeLimits(deps: AppDeps, email: string, clientAddress: string) {
  try {
    const attempt = await takeAttempt(deps.kv, [
      { limit: RECOVER_PER_EMAIL, subject: email },
      { limit: RECOVER_PER_ADDRESS, subject: limitSubject(clientAddress) },
    ], { clock: deps.clock });
    return attempt.allowed;
  } catch (error) {
    deps.log({ level: "error", event: "password_reset_failed", error: describeError(error) });
    return false;
  }
}

async function deliverReset(
  deps: AppDeps,
  email: string,
  options: { clientAddress: string; mailer?: Mailer },
): Promise<void> {
  try {
    const user = await findUserByEmail(deps.store, email);
    if (user) await sendResetLink(deps, user, options.mailer);
  } catch (error) {
    deps.log({ level: "error", event: "password_reset_failed", error: describeError(error) });
  }
}

/** The 403 of a spent, expired or unknown link, as GoTrue answers it. */
function otpExpired(): GoTrueError {
  return new GoTrueError(403, "otp_expired", "Token has expired or is invalid");
}

/**
 * `/auth/v1/verify` with `type=recovery` and the link's token (`token_hash`, or `token` as
 * GET links carry it): spends the token and starts a session (with SMTP, the mailed link also
 * proves the address). 403 `otp_expired` for a token spent, older than an hour or unknown.
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
  // A mailed link reached the address's owner, which proves it (as GoTrue's recovery confirms);
  // without SMTP the operator passed the link on, which proves nothing.
  if (deps.config.smtp) await confirmEmail(deps.store, user.id, { now });
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
