/** Which account an ID token signs in: its identity, a verified email's account, or a new one. */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { admitNewAccount } from "../access/admission.ts";
import { sessionState } from "../auth/sessions.ts";
import { findUserByEmail, isUniqueViolation } from "../auth/users.ts";
import { Problem } from "@/lib/core/problem.ts";
import { OidcFailure } from "./failure.ts";
import { findIdentityUser, saveIdentity } from "./identities.ts";

/** The claims of a verified ID token the sign-in uses. */
export interface IdClaims {
  iss: string;
  sub: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
}

const PLAIN: Record<string, (name: string) => string> = {
  signup_disabled: (name) =>
    `No account here is linked to this ${name} login, and this site is not taking new accounts.`,
  invite_required: (name) =>
    `Accounts here are by invitation: open your invite link, then sign in with ${name}.`,
  invite_invalid: () =>
    "The invite code is not valid: it may be used, expired, or for another email.",
};

async function insertOidcUser(deps: AppDeps, claims: IdClaims & { email: string }) {
  const id = crypto.randomUUID();
  const now = deps.clock.now();
  await deps.store.query(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password,
       email_confirmed_at, raw_app_meta_data, raw_user_meta_data, is_super_admin,
       created_at, updated_at, is_anonymous)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', 'authenticated', $2,
       null, case when $3 then to_timestamp($4 / 1000.0) end,
       '{"provider":"oidc","providers":["oidc"]}', $5::text::jsonb, false,
       to_timestamp($4 / 1000.0), to_timestamp($4 / 1000.0), false)`,
    [
      id,
      claims.email,
      claims.emailVerified,
      now,
      JSON.stringify(claims.name ? { name: claims.name } : {}),
    ],
  );
  return { id };
}

/**
 * The user the token signs in: found by (issuer, subject); else the account of the token's email
 * when the provider verified it **and** the account's owner proved it (docs/oidc.md, "Proven
 * addresses"), linked from then on; else a new account, as SIGNUP allows.
 */
export async function accountFor(
  deps: AppDeps,
  claims: IdClaims,
  options: { providerName: string; inviteCode?: string },
): Promise<string> {
  const { store } = deps;
  const name = options.providerName;
  let userId = await findIdentityUser(store, { issuer: claims.iss, subject: claims.sub });
  const email = claims.email?.trim().toLowerCase();
  if (!userId && email) {
    const existing = await findUserByEmail(store, email);
    // How the account's owner signs in to link the provider from /account instead.
    const how = deps.config.access.passwordLogin
      ? "sign in with your password (or reset it)"
      : "reset its password at /forgot-password, which signs you in";
    if (existing && !claims.emailVerified) {
      throw new OidcFailure(
        "access_denied",
        `An account with this email exists here, but ${name} has not verified the email, so ` +
          `the two were not joined. If it is yours, ${how}, then link ${name} from your ` +
          "account page (/account).",
      );
    }
    if (existing && !existing.email_confirmed_at) {
      // Anyone may sign up with any address; until its owner proves it, joining would hand the
      // provider's user an account someone else may hold the password (or a token) of.
      throw new OidcFailure(
        "access_denied",
        `An account with this email exists here, but its address was never proven, so your ` +
          `${name} sign-in was not joined to it. If it is yours, ${how}, then link ${name} ` +
          "from your account page (/account).",
      );
    }
    userId = existing?.id ?? null;
  }
  if (!userId) {
    if (!email) {
      throw new OidcFailure(
        "access_denied",
        `${name} did not share an email address, which an account here needs.`,
      );
    }
    try {
      userId = (await admitNewAccount(
        deps,
        { email, inviteCode: options.inviteCode, emailVerified: claims.emailVerified },
        () => insertOidcUser(deps, { ...claims, email }),
      )).id;
    } catch (error) {
      if (error instanceof Problem && PLAIN[error.code]) {
        const words = PLAIN[error.code](name);
        throw new OidcFailure(
          "access_denied",
          error.code === "invite_invalid" && !claims.emailVerified
            ? `${words} An invite made for one email also needs ${name} to have verified it.`
            : words,
        );
      }
      if (isUniqueViolation(error)) {
        throw new OidcFailure(
          "server_error",
          "Another sign-in made this account at the same moment; try again.",
        );
      }
      throw error;
    }
  }
  await keepIdentity(deps, claims, { userId, name });
  return userId;
}

/**
 * Links the token's identity to a signed-in user (the "link" mode started from /account): the
 * user proved the account with its own sign-in and the identity at the provider, so neither
 * email needs to match. An identity another account already has is refused.
 */
export async function linkAccount(
  deps: AppDeps,
  claims: IdClaims,
  options: { userId: string; sessionId?: string; providerName: string },
): Promise<string> {
  const { userId, providerName: name } = options;
  // The session that started it must still be live: signing out, or a password change ending
  // the other sessions, also ends the links they had under way.
  const state = await sessionState(deps.store, userId, { sessionId: options.sessionId });
  if (state === "user_not_found") {
    throw new OidcFailure("access_denied", "The account this link was started from is gone.");
  }
  if (state === "session_not_found") {
    throw new OidcFailure(
      "access_denied",
      "The session this link was started from has ended, so nothing was linked. Sign in and " +
        "start it again from your account page (/account).",
    );
  }
  const owner = await findIdentityUser(deps.store, { issuer: claims.iss, subject: claims.sub });
  if (owner && owner !== userId) throw alreadyLinked(name);
  await keepIdentity(deps, claims, { userId, name });
  return userId;
}

const alreadyLinked = (name: string) =>
  new OidcFailure(
    "access_denied",
    `This ${name} login is already linked to another account here, so it was not linked to ` +
      "this one.",
  );

async function keepIdentity(
  deps: AppDeps,
  claims: IdClaims,
  options: { userId: string; name: string },
) {
  const email = claims.email?.trim().toLowerCase();
  const saved = await saveIdentity(deps.store, {
    userId: options.userId,
    issuer: claims.iss,
    subject: claims.sub,
    data: { email: email ?? null, email_verified: claims.emailVerified, name: claims.name ?? null },
  }, { now: deps.clock.now() });
  // Another account took this identity between the lookup and now.
  if (!saved) throw alreadyLinked(options.name);
}
