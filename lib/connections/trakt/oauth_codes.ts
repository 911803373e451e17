/**
 * The code flow, for a user's own apps only (docs/trakt.md, "Sign-in"): the consent page's
 * answer makes a one-time code (10 minutes) for an exactly registered redirect URI, or for the
 * out-of-band page; the app exchanges it once at /trakt/oauth/token.
 */
import { Problem } from "@/lib/core/problem.ts";
import type { Sql } from "@/lib/platform/store/types.ts";
import { appByClientId, type AppRecord, OOB_REDIRECT, secretMatches } from "./apps.ts";
import { invalidGrant } from "./errors.ts";
import { isSecretShaped, randomSecret, secretDigest } from "./oauth_secrets.ts";
import { issueTokens, type OAuthDeps, type TokenAnswer } from "./tokens.ts";

/** A code from the consent page lives 10 minutes. */
const CODE_MS = 600_000;

/** The consent page's answer: the code, and where the browser goes (null: show the code). */
export interface ConsentAnswer {
  code: string | null;
  redirectTo: string | null;
}

/** The app the consent page asks about: the user's own, with this exact redirect URI. */
export async function consentApp(
  sql: Sql,
  input: { userId: string; clientId: string; redirectUri: string },
): Promise<AppRecord> {
  const app = await appByClientId(sql, input.clientId);
  if (!app || app.userId !== input.userId) {
    throw new Problem(
      400,
      "invalid_client",
      "This client id is not one of your apps; the code flow is for apps you made on /account/connections.",
    );
  }
  if (input.redirectUri !== OOB_REDIRECT && !app.redirectUris.includes(input.redirectUri)) {
    throw new Problem(
      400,
      "invalid_redirect_uri",
      "This redirect URI is not registered for the app (it must match exactly).",
    );
  }
  return app;
}

function withQuery(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

/** The user's answer on the consent page. */
export async function answerConsent(
  { sql, clock }: OAuthDeps,
  input: {
    userId: string;
    clientId: string;
    redirectUri: string;
    state?: string;
    approve: boolean;
  },
): Promise<ConsentAnswer> {
  const app = await consentApp(sql, input);
  const oob = input.redirectUri === OOB_REDIRECT;
  if (!input.approve) {
    return {
      code: null,
      redirectTo: oob
        ? null
        : withQuery(input.redirectUri, { error: "access_denied", state: input.state }),
    };
  }
  const code = randomSecret();
  await sql.query(
    `insert into public.trakt_auth_codes (code_hash, app_id, user_id, redirect_uri, expires_at)
     values ($1, $2, $3, $4, $5::timestamptz)`,
    [
      await secretDigest(code),
      app.id,
      input.userId,
      input.redirectUri,
      new Date(clock.now() + CODE_MS).toISOString(),
    ],
  );
  return {
    code,
    redirectTo: oob ? null : withQuery(input.redirectUri, { code, state: input.state }),
  };
}

/** Tokens for a code from the consent page, spent in the same statement; else `invalid_grant`. */
export async function exchangeCode(
  { sql, clock }: OAuthDeps,
  input: { code: string; clientId: string; clientSecret?: string; redirectUri?: string },
): Promise<TokenAnswer> {
  if (!isSecretShaped(input.code)) throw invalidGrant();
  const app = await appByClientId(sql, input.clientId);
  if (!app || !(await secretMatches(app, input.clientSecret))) throw invalidGrant();
  const [row] = await sql.query<{ userId: string; redirectUri: string; expiresAt: unknown }>(
    `delete from public.trakt_auth_codes where code_hash = $1 and app_id = $2
     returning user_id as "userId", redirect_uri as "redirectUri", expires_at as "expiresAt"`,
    [await secretDigest(input.code), app.id],
  );
  if (!row || new Date(row.expiresAt as string).getTime() <= clock.now()) throw invalidGrant();
  if (input.redirectUri !== undefined && input.redirectUri !== row.redirectUri) {
    throw invalidGrant();
  }
  return await issueTokens({ sql, clock }, {
    userId: String(row.userId),
    clientId: input.clientId,
    appId: app.id,
  });
}
