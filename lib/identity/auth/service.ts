/**
 * The identity service the routes use. With SUPABASE_URL set, Supabase Auth is the provider:
 * tokens are checked against its JWKS and signup goes through its admin API. Otherwise the
 * built-in provider serves GoTrue's endpoints on this server and keeps users in auth.users.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { signAccessToken } from "./access_token.ts";
import { type BuiltinProvider, createBuiltinProvider } from "./builtin_provider.ts";
import type { AuthUser, NewUser, TokenVerifier } from "./types.ts";
import { parseSignup, signUp } from "./signup.ts";
import { loadSigningKey, type SigningKey } from "./signing_key.ts";
import { createSupabaseUser, deleteSupabaseUser } from "./supabase_admin.ts";
import { deleteAccount } from "./delete_account.ts";
import { createSupabaseVerifier } from "./supabase_provider.ts";

/** The identity service. */
export interface AuthService extends TokenVerifier {
  /** Which provider is configured. */
  readonly provider: "built-in" | "supabase";
  /** The `iss` of accepted access tokens. */
  readonly issuer: string;
  /** The built-in provider's GoTrue endpoints; undefined when Supabase is the provider. */
  readonly builtin?: BuiltinProvider;
  /** `POST /api/auth/signup`: checks the parsed JSON body and creates the account. */
  signUp(body: unknown, options: { clientAddress: string }): Promise<NewUser>;
  /** `DELETE /api/account` (confirmed): the user and every row of theirs. */
  deleteAccount(user: AuthUser): Promise<void>;
}

/** Builds the identity service from the app's dependencies. */
export function createAuthService(deps: AppDeps): AuthService {
  const supabase = deps.config.supabase;
  if (supabase) {
    const verifier = createSupabaseVerifier(deps, supabase);
    return {
      provider: "supabase",
      issuer: verifier.issuer,
      verifyAccessToken: (token) => verifier.verifyAccessToken(token),
      verifyDeferringSession: (token) => verifier.verifyDeferringSession(token),
      signUp: async (body, { clientAddress }) =>
        await signUp(deps, parseSignup(body), {
          clientAddress,
          createUser: (email, password) =>
            createSupabaseUser(supabase, { email, password }, { fetch: deps.fetch }),
        }),
      deleteAccount: (user) =>
        deleteAccount(deps, user.id, {
          deleteIdentity: (id) => deleteSupabaseUser(supabase, id, { fetch: deps.fetch }),
        }),
    };
  }

  let key: Promise<SigningKey> | undefined;
  const signingKey = () =>
    key ??= loadSigningKey({ jwkJson: deps.config.authSigningKey, dataDir: deps.config.dataDir });
  const issuer = `${deps.config.siteUrl}/auth/v1`;
  const builtin = createBuiltinProvider(deps, {
    signingKey,
    issuer,
    issue: async (user, { sessionId, aal, amr }) =>
      await signAccessToken(await signingKey(), user, {
        issuer,
        clock: deps.clock,
        sessionId,
        aal,
        amr,
      }),
  });
  return {
    provider: "built-in",
    issuer,
    builtin,
    verifyAccessToken: (token) => builtin.verify(token),
    verifyDeferringSession: (token) => builtin.verifyDeferringSession(token),
    signUp: async (body, { clientAddress }) =>
      await signUp(deps, parseSignup(body), {
        clientAddress,
        createUser: (email, password) => builtin.createUser(email, password),
      }),
    deleteAccount: (user) => deleteAccount(deps, user.id),
  };
}
