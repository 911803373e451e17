/**
 * The state of a sign-in in flight, in KV (shared by every instance, gone after 10 minutes):
 * the flow under its `state` (what the identity provider sends back), then the one-use code
 * supabase-js exchanges (`grant_type=pkce`). Both are keyed by SHA-256, so KV never holds a
 * value that would let someone finish a sign-in.
 */
import type { Kv, KvKey } from "@/lib/platform/kv/kv.ts";
import { hashToken } from "../auth/sessions.ts";

/** What the callback needs to finish the flow. */
interface Flow {
  nonce: string;
  /** Our PKCE verifier towards the identity provider. */
  verifier: string;
  redirectTo: string;
  /** supabase-js's PKCE challenge, checked at the exchange. */
  codeChallenge: string;
  codeChallengeMethod: "s256" | "plain";
  inviteCode?: string;
  /** The signed-in user a "link" flow (from /account) attaches the identity to. */
  linkUserId?: string;
  /** The session that started the link: ended meanwhile, the link is refused. */
  linkSessionId?: string;
  /**
   * A link flow's browser binding: the SHA-256 of the value of a cookie set on the browser that
   * started it, so a provider address handed to someone else cannot link their login.
   */
  linkBinding?: string;
}

/** What the exchange turns into a session. */
interface Grant {
  userId: string;
  codeChallenge: string;
  codeChallengeMethod: "s256" | "plain";
}

/** How long a sign-in may take at the identity provider. */
const FLOW_TTL_MS = 10 * 60_000;
/** How long the site has to exchange its code. */
const GRANT_TTL_MS = 5 * 60_000;

/** A random URL-safe value of 32 bytes. */
export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** Stores a flow; its `state`. */
export async function saveFlow(kv: Kv, flow: Flow): Promise<string> {
  const state = randomToken();
  await kv.set(["oidc_flow", await hashToken(state)], flow, { expireIn: FLOW_TTL_MS });
  return state;
}

/** Takes a flow by its state, once; null when unknown, used or expired. */
export async function takeFlow(kv: Kv, state: string): Promise<Flow | null> {
  return await takeOnce<Flow>(kv, ["oidc_flow", await hashToken(state)]);
}

/** Stores a grant; the code supabase-js exchanges. */
export async function saveGrant(kv: Kv, grant: Grant): Promise<string> {
  const code = crypto.randomUUID();
  await kv.set(["oidc_grant", await hashToken(code)], grant, { expireIn: GRANT_TTL_MS });
  return code;
}

/** Takes a grant by its code, once. */
export async function takeGrant(kv: Kv, code: string): Promise<Grant | null> {
  return await takeOnce<Grant>(kv, ["oidc_grant", await hashToken(code)]);
}

// Read and delete in one atomic step, so two requests with one value cannot both have it.
async function takeOnce<T>(kv: Kv, key: KvKey): Promise<T | null> {
  for (let round = 0; round < 5; round++) {
    const entry = await kv.get<T & { savedAt?: number }>(key);
    if (entry.value === null) return null;
    const done = await kv.atomic().check(entry).delete(key).commit();
    if (done.ok) return entry.value;
  }
  return null;
}
