/**
 * The /trakt edge (docs/trakt.md, "Sign-in"): CORS preflights, the `trakt-api-key` header, and
 * the Bearer token, a personal access token (a `read` one may only GET) or a Trakt OAuth token.
 * A route handler gets the caller with `traktUserOf(c)`, which is a 401 when no token was sent;
 * a route that Trakt answers without a token (search, movies) reads `c.var.traktUser` instead.
 */
import { isPersonalToken } from "@/lib/identity/personal_tokens/mod.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { TraktUser } from "@/lib/connections/trakt/auth.ts";
import { foreignToken } from "@/lib/connections/trakt/auth_service.ts";
import {
  type LimitAnswer,
  takeDeviceCode,
  takeGet,
  takeWrite,
} from "@/lib/connections/trakt/limits.ts";
import type { Ctx, Middleware } from "../app_env.ts";
import { bearerToken } from "../bearer.ts";
import { clientAddress } from "../client_address.ts";
import { TRAKT_CORS } from "../trakt_error.ts";

/** The 401 of /trakt: Trakt's challenge, `invalid_token` only when a token was sent. */
function traktUnauthorized(detail: string, invalidToken: boolean): Problem {
  const challenge = invalidToken
    ? 'Bearer realm="trakt", error="invalid_token"'
    : 'Bearer realm="trakt"';
  return new Problem(401, invalidToken ? "invalid_token" : "unauthorized", detail, {
    headers: { "WWW-Authenticate": challenge },
  });
}

// The OAuth endpoints take the client id in their body (and the consent page is a page).
function needsApiKey(path: string): boolean {
  return !path.startsWith("/trakt/oauth/");
}

/** The caller a token names, or a Problem (401 unknown, 403 a `read` token writing). */
async function callerOf(c: Ctx, token: string): Promise<TraktUser> {
  const reads = c.req.method === "GET" || c.req.method === "HEAD";
  if (isPersonalToken(token)) {
    const holder = await c.var.services.personalTokens.verify(token);
    const canWrite = holder.scope === "write";
    if (!canWrite && !reads) {
      throw new Problem(
        403,
        "insufficient_scope",
        "This personal access token may only read (GET).",
      );
    }
    return { userId: holder.user.id, canWrite, tokenId: `pat:${holder.id}` };
  }
  const holder = await c.var.services.traktAuth.verify(token);
  if (!holder) throw traktUnauthorized("This access token is unknown, revoked or expired.", true);
  const apiKey = c.req.header("trakt-api-key")?.trim();
  if (apiKey && apiKey !== holder.clientId) throw foreignToken();
  return { userId: holder.userId, canWrite: true, tokenId: `oauth:${holder.authorizationId}` };
}

/**
 * Trakt's limits: GETs per token (per address without one), writes per token, device codes per
 * address; the other sign-in routes keep their own rules (a device's polls have their interval).
 */
async function countRequest(c: Ctx): Promise<void> {
  const { kv, clock } = c.var.deps;
  const caller = c.var.traktUser;
  let answer: LimitAnswer | undefined;
  if (c.req.path === "/trakt/oauth/device/code" && c.req.method === "POST") {
    answer = await takeDeviceCode({ kv, clock }, clientAddress(c));
  } else if (c.req.path.startsWith("/trakt/oauth/")) {
    return;
  } else if (c.req.method === "GET" || c.req.method === "HEAD") {
    answer = await takeGet({ kv, clock }, caller ? caller.tokenId : `ip:${clientAddress(c)}`);
  } else if (caller) {
    answer = await takeWrite({ kv, clock }, caller.tokenId);
  }
  if (!answer || answer.allowed) return;
  throw new Problem(
    429,
    "rate_limit_exceeded",
    `Over ${answer.state.name}: ${answer.state.limit} per ${answer.state.period} s; retry after ${answer.state.until}.`,
    {
      headers: {
        "Retry-After": String(Math.max(1, Math.ceil(answer.retryAfterMs / 1000))),
        "X-Ratelimit": JSON.stringify(answer.state),
      },
    },
  );
}

/** The /trakt middleware: preflight, API key, Bearer token into `c.var.traktUser`, CORS. */
export function traktEdge(): Middleware {
  return async function traktEdge(c, next) {
    if (c.req.method === "OPTIONS") {
      return c.body(null, 204, { ...TRAKT_CORS });
    }
    if (needsApiKey(c.req.path) && !c.req.header("trakt-api-key")?.trim()) {
      throw new Problem(403, "invalid_api_key", "Send your app's client id as trakt-api-key.");
    }
    const header = c.req.header("authorization");
    if (header !== undefined && header.trim() !== "") {
      const token = bearerToken(header);
      if (!token) throw traktUnauthorized("Send the token as Authorization: Bearer <token>.", true);
      c.set("traktUser", await callerOf(c, token));
    }
    await countRequest(c);
    await next();
    for (const [k, v] of Object.entries(TRAKT_CORS)) c.res.headers.set(k, v);
  };
}

/** The caller of a /trakt route that needs a token; a 401 with Trakt's challenge when none came. */
export function traktUserOf(c: Ctx): TraktUser {
  const user = c.var.traktUser;
  if (!user) {
    throw traktUnauthorized(
      "This needs an OAuth access token: Authorization: Bearer <token>.",
      false,
    );
  }
  return user;
}
