/**
 * The two Supabase Auth calls beyond the JWKS: creating a confirmed user through the admin API
 * (signup) and asking `GET /auth/v1/user` about a token that JWKS cannot check (a project still
 * signing with the legacy HS256 secret). Both go through deps.fetch.
 */
import type { SupabaseConfig } from "@/lib/core/config.ts";
import { isLegacyJwtKey } from "@/lib/core/config_supabase.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { AuthUser } from "./types.ts";

const TIMEOUT_MS = 10_000;

function unavailable(cause: unknown): Problem {
  return new Problem(
    503,
    "identity_unavailable",
    "The identity provider could not be reached; try again in a moment.",
    { headers: { "Retry-After": "5" }, cause },
  );
}

// New secret keys (sb_secret_...) are not JWTs and go in `apikey` only (Supabase's gateway
// refuses one as a Bearer token); a legacy service_role JWT goes in both headers, as
// supabase-js sends it.
function adminHeaders(key: string): Record<string, string> {
  const headers: Record<string, string> = { apikey: key, "content-type": "application/json" };
  if (isLegacyJwtKey(key)) headers.authorization = `Bearer ${key}`;
  return headers;
}

function errorCode(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const b = body as { code?: unknown; error_code?: unknown };
  if (typeof b.error_code === "string") return b.error_code;
  return typeof b.code === "string" ? b.code : undefined;
}

async function call(
  fetcher: typeof fetch,
  url: string,
  init: RequestInit,
): Promise<{ status: number; body: unknown }> {
  let res: Response;
  try {
    res = await fetcher(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw unavailable(error);
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  // Rate-limited is Supabase being busy, not a refusal: "try again" is the honest answer.
  if (res.status >= 500 || res.status === 429) {
    throw unavailable(new Error(`Supabase Auth answered ${res.status}`));
  }
  return { status: res.status, body };
}

/**
 * Creates a confirmed user (`email_confirm: true`). An existing email is 409 `email_exists`,
 * a password Supabase refuses is 400 `invalid_password`; other refusals are 502.
 */
export async function createSupabaseUser(
  supabase: SupabaseConfig,
  user: { email: string; password: string },
  options: { fetch: typeof fetch },
): Promise<AuthUser> {
  if (!supabase.serviceRoleKey) {
    throw new Problem(
      503,
      "signup_unavailable",
      "Signup is not configured on this server.",
      { cause: new Error("SUPABASE_SECRET_KEY (or SUPABASE_SERVICE_ROLE_KEY) is not set") },
    );
  }
  const { status, body } = await call(options.fetch, `${supabase.url}/auth/v1/admin/users`, {
    method: "POST",
    headers: adminHeaders(supabase.serviceRoleKey),
    body: JSON.stringify({ email: user.email, password: user.password, email_confirm: true }),
  });
  const created = body as { id?: unknown; email?: unknown } | null;
  if (status >= 200 && status < 300 && typeof created?.id === "string") {
    return {
      id: created.id,
      email: typeof created.email === "string" ? created.email : user.email,
    };
  }
  const code = errorCode(body);
  if (code === "email_exists" || code === "user_already_exists") {
    throw new Problem(409, "email_exists", "An account with this email already exists.");
  }
  if (code === "weak_password") {
    throw new Problem(400, "invalid_password", "The identity provider refused this password.");
  }
  throw new Problem(502, "upstream_error", "The identity provider refused to create the account.", {
    cause: new Error(`admin/users answered ${status} ${code ?? ""}`.trim()),
  });
}

/** Asks Supabase Auth who a token belongs to; null when it refuses the token, 503 when it fails. */
export async function getSupabaseUser(
  supabase: SupabaseConfig,
  token: string,
  options: { fetch: typeof fetch },
): Promise<AuthUser | null> {
  const { status, body } = await call(options.fetch, `${supabase.url}/auth/v1/user`, {
    headers: { apikey: supabase.anonKey, authorization: `Bearer ${token}` },
  });
  // GoTrue refuses a token with 400, 401 or 403; anything else (429 above all) is Supabase
  // failing, and a signed-in user must not be told their token is bad because of it.
  if (status !== 200 && status !== 400 && status !== 401 && status !== 403) {
    throw unavailable(new Error(`auth/v1/user answered ${status}`));
  }
  const user = body as { id?: unknown; email?: unknown } | null;
  if (status !== 200 || typeof user?.id !== "string") return null;
  return { id: user.id, email: typeof user.email === "string" ? user.email : "" };
}

/**
 * Deletes a user through the admin API (a hard delete). A user Supabase no longer has counts
 * as deleted; Supabase failing is 503, any other refusal 502.
 */
export async function deleteSupabaseUser(
  supabase: SupabaseConfig,
  userId: string,
  options: { fetch: typeof fetch },
): Promise<void> {
  if (!supabase.serviceRoleKey) {
    throw new Problem(503, "account_deletion_unavailable", "Deleting accounts is not configured.", {
      cause: new Error("SUPABASE_SECRET_KEY (or SUPABASE_SERVICE_ROLE_KEY) is not set"),
    });
  }
  const { status, body } = await call(
    options.fetch,
    `${supabase.url}/auth/v1/admin/users/${encodeURIComponent(userId)}`,
    {
      method: "DELETE",
      headers: adminHeaders(supabase.serviceRoleKey),
      body: JSON.stringify({ should_soft_delete: false }),
    },
  );
  if ((status >= 200 && status < 300) || errorCode(body) === "user_not_found") return;
  throw new Problem(502, "upstream_error", "The identity provider refused to delete the account.", {
    cause: new Error(`admin/users DELETE answered ${status} ${errorCode(body) ?? ""}`.trim()),
  });
}
