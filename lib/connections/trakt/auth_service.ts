/**
 * Trakt sign-in as one service (docs/trakt.md, "Sign-in"): the device and code flows, tokens
 * with refresh and revoke, the user's own apps and the apps they signed in to.
 */
import { Problem } from "@/lib/core/problem.ts";
import type { AppDeps } from "@/lib/platform/deps.ts";
import {
  appByClientId,
  createApp,
  deleteApp,
  listApps,
  secretMatches,
  type TraktApp,
} from "./apps.ts";
import { type Authorization, deleteAuthorization, listAuthorizations } from "./authorizations.ts";
import {
  createDeviceCode,
  decideActivation,
  type DeviceCodeAnswer,
  findActivation,
  type PendingActivation,
  pollDeviceCode,
} from "./device_codes.ts";
import { invalidClient, invalidGrant, invalidRequest } from "./errors.ts";
import { answerConsent, type ConsentAnswer, consentApp, exchangeCode } from "./oauth_codes.ts";
import {
  revokeToken,
  rotateTokens,
  type TokenAnswer,
  type TokenHolder,
  verifyAccessToken,
} from "./tokens.ts";

/** The body of POST /trakt/oauth/token, as parsed by its route. */
interface TokenRequest {
  grantType: "authorization_code" | "refresh_token";
  clientId: string;
  clientSecret?: string;
  code?: string;
  refreshToken?: string;
  redirectUri?: string;
}

/** Trakt sign-in. */
export interface TraktAuthService {
  /** POST /trakt/oauth/device/code. */
  deviceCode(clientId: string): Promise<DeviceCodeAnswer>;
  /** POST /trakt/oauth/device/token: the tokens, or Trakt's polling status as a Problem. */
  deviceToken(
    input: { code: string; clientId: string; clientSecret?: string },
  ): Promise<TokenAnswer>;
  /** POST /trakt/oauth/token: a code exchanged or a refresh token rotated. */
  token(input: TokenRequest): Promise<TokenAnswer>;
  /** POST /trakt/oauth/revoke: ends the token's authorization (unknown tokens are no error). */
  revoke(input: { token: string; clientId: string; clientSecret?: string }): Promise<void>;
  /** Who a live access token acts for, or undefined. */
  verify(token: string): Promise<TokenHolder | undefined>;
  /** The pending device code typed on /activate. */
  activation(code: string): Promise<PendingActivation>;
  /** The signed-in user's answer to a device code. */
  decide(userId: string, input: { code: string; approve: boolean }): Promise<"approved" | "denied">;
  /** The consent page's app: the user's own, with that exact redirect URI (or out of band). */
  consentApp(
    userId: string,
    input: { clientId: string; redirectUri: string },
  ): Promise<{ name: string }>;
  /** The consent page's answer. */
  authorize(
    userId: string,
    input: { clientId: string; redirectUri: string; state?: string; approve: boolean },
  ): Promise<ConsentAnswer>;
  createApp(
    userId: string,
    input: { name: string; redirectUris: string[] },
  ): Promise<TraktApp & { clientSecret: string }>;
  listApps(userId: string): Promise<TraktApp[]>;
  deleteApp(userId: string, id: string): Promise<void>;
  authorizations(userId: string): Promise<Authorization[]>;
  deleteAuthorization(userId: string, id: string): Promise<void>;
}

/** Builds Trakt sign-in from the app's dependencies. */
export function createTraktAuthService(deps: AppDeps): TraktAuthService {
  const { store, clock, config } = deps;
  const on = { sql: store, clock };
  return {
    deviceCode: (clientId) =>
      createDeviceCode(on, { clientId, verificationUrl: `${config.siteUrl}/activate` }),
    deviceToken: (input) => pollDeviceCode(on, input),
    async token(input) {
      if (input.grantType === "authorization_code") {
        if (!input.code) throw invalidRequest("code is required.");
        return await exchangeCode(on, { ...input, code: input.code });
      }
      if (!input.refreshToken) throw invalidRequest("refresh_token is required.");
      // An app made here proves itself with its secret; a client registered at Trakt cannot.
      const app = await appByClientId(store, input.clientId);
      if (app && !(await secretMatches(app, input.clientSecret))) throw invalidClient();
      const answer = await rotateTokens(on, {
        refreshToken: input.refreshToken,
        clientId: input.clientId,
      });
      if (!answer) throw invalidGrant();
      return answer;
    },
    async revoke(input) {
      const app = await appByClientId(store, input.clientId);
      if (app && !(await secretMatches(app, input.clientSecret))) throw invalidClient();
      await revokeToken(store, input);
    },
    verify: (token) => verifyAccessToken(on, token),
    activation: (code) => findActivation(on, code),
    decide: (userId, input) => decideActivation(on, { userId, ...input }),
    async consentApp(userId, input) {
      const app = await consentApp(store, { userId, ...input });
      return { name: app.name };
    },
    authorize: (userId, input) => answerConsent(on, { userId, ...input }),
    createApp: (userId, input) =>
      store.asUser(userId, (tx) => createApp(tx, { ...input, now: clock.now() })),
    listApps: (userId) => store.asUser(userId, (tx) => listApps(tx)),
    deleteApp: (userId, id) => store.asUser(userId, (tx) => deleteApp(tx, id)),
    authorizations: (userId) => store.asUser(userId, (tx) => listAuthorizations(tx)),
    deleteAuthorization: (userId, id) => store.asUser(userId, (tx) => deleteAuthorization(tx, id)),
  };
}

/** A token of another app than the `trakt-api-key` names (403 on Trakt). */
export function foreignToken(): Problem {
  return new Problem(403, "forbidden", "This token was issued to another app (trakt-api-key).");
}
