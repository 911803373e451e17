/**
 * A failed sign-in comes back to the site as `?error=&error_description=` (OAuth's words). The
 * sign-in page shows the description only when the service wrote it: the redirect carries
 * `error_sig`, its MAC under a KV secret, so a crafted link cannot put its own sentence on the
 * page (it gets the plain words of its error code instead).
 */
import type { Kv, KvKey } from "@/lib/platform/kv/kv.ts";
import { kvMac, kvMacMatches } from "@/lib/platform/kv/secret.ts";

const SECRET_KEY: KvKey = ["oidc", "failure_secret"];

const GENERIC: Record<string, string> = {
  access_denied: "The sign-in with the identity provider was refused.",
  server_error: "The identity provider could not complete the sign-in. Please try again.",
};
const FALLBACK = "Signing in with the identity provider failed.";

/** The redirect's error parameters for a failure with `code` and the service's `description`. */
export async function failureParams(
  kv: Kv,
  failure: { code: string; description: string },
): Promise<Record<string, string>> {
  return {
    error: failure.code,
    error_description: failure.description,
    error_sig: await kvMac(kv, SECRET_KEY, `${failure.code}\n${failure.description}`),
  };
}

/** The words the sign-in page shows for a failure that came back in the URL. */
export async function failureWords(
  kv: Kv,
  query: { error: string; description?: string; sig?: string },
): Promise<string> {
  const { error, description, sig } = query;
  if (description && sig) {
    const text = `${error}\n${description}`;
    if (await kvMacMatches(kv, SECRET_KEY, { text, mac: sig })) return description;
  }
  return GENERIC[error] ?? FALLBACK;
}
