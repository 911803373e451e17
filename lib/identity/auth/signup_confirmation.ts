/**
 * Proving a password signup's address (docs/identity.md, "Proven addresses"): with SMTP_URL the
 * signup mails a confirmation link (GoTrue's "confirm signup"), and `/auth/v1/verify` with
 * `type=signup` spends it and sets `email_confirmed_at`. Without SMTP nothing is mailed or logged:
 * such an address is never proven.
 */
import { z } from "zod";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { describeError } from "@/lib/core/log.ts";
import type { Mailer } from "@/lib/platform/mail/mod.ts";
import { issueConfirmationToken, redeemConfirmationToken } from "./confirmation_tokens.ts";
import { confirmationLink, confirmMail } from "./confirm_mail.ts";
import { GoTrueError } from "./gotrue_error.ts";
import { type IssueToken, type SessionResponse, sessionResponse } from "./grants.ts";
import { startSession } from "./sessions.ts";
import { findUserById, touchSignIn } from "./users.ts";

const verifyParams = z.object({ token_hash: z.string().optional(), token: z.string().optional() });

/** The session's first `amr` method after a confirmation link, as GoTrue names it. */
const SIGNUP_METHOD = "email/signup";

/**
 * Mails the confirmation link of a new password account when a mailer is configured, and says
 * when it was sent (GoTrue's `confirmation_sent_at`; null when nothing was mailed). A mail that
 * fails is logged without the link; the signup stands (the account stays unconfirmed).
 */
export async function sendConfirmation(
  deps: AppDeps,
  user: { id: string; email: string },
  mailer: Mailer | undefined,
): Promise<string | null> {
  if (!mailer) return null;
  try {
    const token = await issueConfirmationToken(deps.store, user.id, { now: deps.clock.now() });
    const link = confirmationLink(deps.config.siteUrl, token);
    await mailer.send(confirmMail(user.email, link, { siteUrl: deps.config.siteUrl }));
    return new Date(deps.clock.now()).toISOString();
  } catch (error) {
    deps.log({
      level: "error",
      event: "signup_confirmation_mail_failed",
      userId: user.id,
      error: describeError(error),
    });
    return null;
  }
}

function secretOf(params: unknown): string {
  const parsed = verifyParams.safeParse(params);
  const secret = parsed.success ? parsed.data.token_hash || parsed.data.token : undefined;
  if (!secret) {
    throw new GoTrueError(
      400,
      "validation_failed",
      "Verify requires either a token or a token hash",
    );
  }
  return secret;
}

/** The 403 of a spent, expired or unknown link, as GoTrue answers it. */
const otpExpired = () => new GoTrueError(403, "otp_expired", "Token has expired or is invalid");

/**
 * `POST /auth/v1/verify` with `type=signup` (supabase-js `verifyOtp({token_hash, type})`):
 * spends the token, confirms the address and starts a session, as GoTrue answers it.
 */
export async function verifySignup(
  deps: AppDeps,
  params: unknown,
  options: { issue: IssueToken },
): Promise<SessionResponse> {
  const secret = secretOf(params);
  const now = deps.clock.now();
  const userId = await redeemConfirmationToken(deps.store, secret, { now });
  const user = userId ? await findUserById(deps.store, userId) : null;
  if (!user) throw otpExpired();
  const session = await startSession(deps.store, user.id, { now });
  const signedIn = await touchSignIn(deps.store, user.id, { now });
  return await sessionResponse(deps.store, signedIn, {
    issue: options.issue,
    session,
    method: SIGNUP_METHOD,
    now,
  });
}

/**
 * `GET /auth/v1/verify?type=signup` (the mailed link): spends the token and confirms the address,
 * but signs nobody in (a mail scanner or a forwarded mail opening it gets no session); true
 * when the link was good.
 */
export async function confirmByLink(deps: AppDeps, params: unknown): Promise<boolean> {
  const secret = secretOf(params);
  return await redeemConfirmationToken(deps.store, secret, { now: deps.clock.now() }) !== null;
}

/**
 * Where the mailed link lands: `redirect_to` when it is on this site (anything else would make
 * the link an open redirect), else /account, with `notice=email-confirmed` or
 * `notice=email-link-invalid`.
 */
export function confirmationRedirect(
  siteUrl: string,
  redirectTo: string | undefined,
  confirmed: boolean,
): string {
  let target = new URL(`${siteUrl}/account`);
  try {
    const wanted = new URL(redirectTo ?? "", siteUrl);
    if (redirectTo && wanted.origin === target.origin) target = wanted;
  } catch {
    // not a URL: the default page
  }
  target.hash = "";
  target.searchParams.set("notice", confirmed ? "email-confirmed" : "email-link-invalid");
  return target.href;
}
