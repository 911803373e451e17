/**
 * Sign-in with the instance's OpenID Connect provider through the built-in provider, in the
 * shape supabase-js's `signInWithOAuth` (PKCE) expects (docs/oidc.md): `/authorize` sends the
 * browser to the provider (authorization code with PKCE, state, nonce); `/callback` checks the
 * answer and returns to the site with a one-use code; `grant_type=pkce` turns it into a session.
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import type { OidcConfig } from "@/lib/core/config.ts";
import { GoTrueError } from "../auth/gotrue_error.ts";
import { type IssueToken, type SessionResponse, sessionResponse } from "../auth/grants.ts";
import { hashToken, startSession } from "../auth/sessions.ts";
import { touchSignIn } from "../auth/users.ts";
import { accountFor, linkAccount } from "./accounts.ts";
import { createDiscovery, type Discovery } from "./discovery.ts";
import { OidcFailure } from "./failure.ts";
import { failureParams } from "./failure_seal.ts";
import { randomToken, saveFlow, saveGrant, takeFlow, takeGrant } from "./flow.ts";
import { exchangeCode, verifyIdToken } from "./id_token.ts";
import { findUserIdentity } from "./identities.ts";
import { redirectAllowed, withParams } from "./redirects.ts";

/** The three steps of the sign-in. */
export interface OidcService {
  /** `GET /auth/v1/authorize`: where to send the browser. */
  authorize(query: Record<string, string | undefined>): Promise<string>;
  /**
   * `GET /auth/v1/user/identities/authorize` (supabase-js `linkIdentity`): where to send the
   * signed-in user's browser to link the provider to their account.
   */
  linkAuthorize(
    user: { id: string; sessionId?: string },
    query: Record<string, string | undefined>,
  ): Promise<{ url: string; binding: string }>;
  /**
   * `GET /auth/v1/callback`: where to send the browser back (with `code`, or `error`; a link
   * flow with `linked=oidc` instead of a code).
   */
  callback(
    query: Record<string, string | undefined>,
    options?: { linkBinding?: string },
  ): Promise<string>;
  /** The user's identity at the configured provider (for /account), or null. */
  linked(userId: string): Promise<{ email: string | null } | null>;
  /** `POST /auth/v1/token?grant_type=pkce`: the session of a returned code. */
  exchange(body: unknown): Promise<SessionResponse>;
}

const base64url = (bytes: ArrayBuffer) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");

async function s256(verifier: string): Promise<string> {
  return base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
}

/** Builds the sign-in around the provider's token signer. */
export function createOidcService(deps: AppDeps, options: { issue: IssueToken }): OidcService {
  const { config, kv } = deps;
  const oidc: OidcConfig | undefined = config.access.oidc;
  const discovery: Discovery | undefined = oidc ? createDiscovery(deps, oidc) : undefined;
  const callbackUrl = `${config.siteUrl}/auth/v1/callback`;
  const loginError = async (description: string) =>
    withParams(
      `${config.siteUrl}/login`,
      await failureParams(kv, { code: "invalid_request", description }),
    );

  // The first step of both flows: a sign-in (PKCE towards the site) or a link (`linkUserId`).
  async function start(
    query: Record<string, string | undefined>,
    link?: { userId: string; sessionId?: string; binding: string },
  ): Promise<string> {
    const linkUserId = link?.userId;
    if (!oidc || !discovery || query.provider !== "oidc") {
      throw new GoTrueError(
        400,
        "validation_failed",
        `Unsupported provider: Provider ${query.provider ?? ""} could not be found`,
      );
    }
    const redirectTo = query.redirect_to || config.siteUrl;
    if (
      !redirectAllowed(redirectTo, { siteUrl: config.siteUrl, allow: config.access.redirectAllow })
    ) {
      return await loginError("The sign-in was asked to return to a site this one does not trust.");
    }
    const method = (query.code_challenge_method ?? "").toLowerCase();
    // A link returns no code (the page keeps its session), so it needs no PKCE towards the site.
    if (!linkUserId && (!query.code_challenge || (method !== "s256" && method !== "plain"))) {
      return withParams(
        redirectTo,
        await failureParams(kv, {
          code: "invalid_request",
          description: "This sign-in needs PKCE (supabase-js with flowType 'pkce').",
        }),
      );
    }
    try {
      const meta = await discovery.metadata();
      const verifier = randomToken();
      const nonce = randomToken();
      const state = await saveFlow(kv, {
        nonce,
        verifier,
        redirectTo,
        codeChallenge: (query.code_challenge ?? "").slice(0, 200),
        codeChallengeMethod: method === "plain" ? "plain" : "s256",
        inviteCode: linkUserId ? undefined : query.invite_code?.slice(0, 64) || undefined,
        linkUserId,
        linkSessionId: link?.sessionId,
        linkBinding: link?.binding,
      });
      return withParams(meta.authorization_endpoint, {
        response_type: "code",
        client_id: oidc.clientId,
        redirect_uri: callbackUrl,
        scope: oidc.scopes.join(" "),
        state,
        nonce,
        code_challenge: await s256(verifier),
        code_challenge_method: "S256",
      });
    } catch (error) {
      if (!(error instanceof OidcFailure)) throw error;
      return withParams(
        redirectTo,
        await failureParams(kv, { code: error.code, description: error.message }),
      );
    }
  }

  return {
    async authorize(query) {
      return await start(query);
    },

    async linkAuthorize(user, query) {
      const binding = randomToken();
      const url = await start(query, {
        userId: user.id,
        sessionId: user.sessionId,
        binding: await hashToken(binding),
      });
      return { url, binding };
    },

    async callback(query, callbackOptions = {}) {
      const flow = query.state ? await takeFlow(kv, query.state) : null;
      if (!oidc || !discovery || !flow) {
        return await loginError(
          "This sign-in expired or was not started here. Please start it again.",
        );
      }
      try {
        if (query.error || !query.code) {
          throw new OidcFailure(
            "access_denied",
            `The sign-in at ${oidc.name} was cancelled or refused.`,
          );
        }
        const idToken = await exchangeCode(deps, oidc, {
          discovery,
          code: query.code,
          verifier: flow.verifier,
          redirectUri: callbackUrl,
        });
        const claims = await verifyIdToken(deps, oidc, { idToken, nonce: flow.nonce, discovery });
        if (flow.linkUserId) {
          const binding = callbackOptions.linkBinding;
          // Compared as digests; a browser without the starting one's cookie links nothing.
          if (!binding || (await hashToken(binding)) !== flow.linkBinding) {
            throw new OidcFailure(
              "access_denied",
              "This link was not started in this browser, so nothing was linked. Start it again " +
                "from your account page (/account).",
            );
          }
          await linkAccount(deps, claims, {
            userId: flow.linkUserId,
            sessionId: flow.linkSessionId,
            providerName: oidc.name,
          });
          return withParams(flow.redirectTo, { linked: "oidc" });
        }
        const userId = await accountFor(deps, claims, {
          providerName: oidc.name,
          inviteCode: flow.inviteCode,
        });
        const code = await saveGrant(kv, {
          userId,
          codeChallenge: flow.codeChallenge,
          codeChallengeMethod: flow.codeChallengeMethod,
        });
        return withParams(flow.redirectTo, { code });
      } catch (error) {
        if (!(error instanceof OidcFailure)) throw error;
        return withParams(
          flow.redirectTo,
          await failureParams(kv, { code: error.code, description: error.message }),
        );
      }
    },

    async linked(userId) {
      if (!oidc) return null;
      return await findUserIdentity(deps.store, { userId, issuer: oidc.issuer });
    },

    async exchange(body) {
      const { auth_code: code, code_verifier: verifier } = (body ?? {}) as Record<string, unknown>;
      if (typeof code !== "string" || typeof verifier !== "string" || !code || !verifier) {
        throw new GoTrueError(
          400,
          "validation_failed",
          "invalid request: both auth code and code verifier should be non-empty",
        );
      }
      const grant = await takeGrant(kv, code);
      if (!grant) {
        throw new GoTrueError(
          404,
          "flow_state_not_found",
          "invalid flow state, no valid flow state found",
        );
      }
      const expected = grant.codeChallengeMethod === "s256" ? await s256(verifier) : verifier;
      // Compared as digests, so the time taken says nothing about the challenge.
      if ((await hashToken(expected)) !== (await hashToken(grant.codeChallenge))) {
        throw new GoTrueError(
          403,
          "bad_code_verifier",
          "code challenge does not match previously saved code verifier",
        );
      }
      const now = deps.clock.now();
      const session = await startSession(deps.store, grant.userId, { now });
      const user = await touchSignIn(deps.store, grant.userId, { now });
      return await sessionResponse(deps.store, user, {
        issue: options.issue,
        session,
        method: "oauth",
        now,
      });
    },
  };
}
