/** Which account an ID token signs in: its identity, a verified email's account, or a new one. */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { admitNewAccount } from "../access/admission.ts";
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
 * when the provider verified it (linked from then on); else a new account, as SIGNUP allows.
 */
export async function accountFor(
  deps: AppDeps,
  claims: IdClaims,
  options: { providerName: string; inviteCode?: string },
): Promise<string> {
  const { store } = deps;
  let userId = await findIdentityUser(store, { issuer: claims.iss, subject: claims.sub });
  const email = claims.email?.trim().toLowerCase();
  if (!userId && email) {
    const existing = await findUserByEmail(store, email);
    if (existing && !claims.emailVerified) {
      throw new OidcFailure(
        "access_denied",
        `An account with this email exists here, but ${options.providerName} has not verified ` +
          "the email, so the two were not joined. Sign in with your password instead.",
      );
    }
    userId = existing?.id ?? null;
  }
  if (!userId) {
    if (!email) {
      throw new OidcFailure(
        "access_denied",
        `${options.providerName} did not share an email address, which an account here needs.`,
      );
    }
    try {
      userId = (await admitNewAccount(
        deps,
        { email, inviteCode: options.inviteCode },
        () => insertOidcUser(deps, { ...claims, email }),
      )).id;
    } catch (error) {
      if (error instanceof Problem && PLAIN[error.code]) {
        throw new OidcFailure("access_denied", PLAIN[error.code](options.providerName));
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
  await saveIdentity(store, {
    userId,
    issuer: claims.iss,
    subject: claims.sub,
    data: { email: email ?? null, email_verified: claims.emailVerified, name: claims.name ?? null },
  }, { now: deps.clock.now() });
  return userId;
}
