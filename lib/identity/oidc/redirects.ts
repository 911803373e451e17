/**
 * Where a sign-in may return (docs/oidc.md): the site's own origin, or a URL starting with an
 * entry of AUTH_REDIRECT_ALLOW (an origin allows all of it). Anything else would hand the sign-in
 * code to a stranger's page.
 */

/** Whether `target` is an absolute http(s) URL the site or the allow-list covers. */
export function redirectAllowed(
  target: string,
  options: { siteUrl: string; allow: string[] },
): boolean {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return false;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return false;
  if (url.username || url.password) return false;
  if (url.origin === new URL(options.siteUrl).origin) return true;
  return options.allow.some((entry) => {
    const allowed = new URL(entry);
    if (allowed.origin !== url.origin) return false;
    const path = allowed.pathname === "/" ? "/" : allowed.pathname.replace(/\/?$/, "/");
    return allowed.pathname === "/" || `${url.pathname}/`.startsWith(path);
  });
}

/** `base` with `params` added to its query (the sign-in's code, or why it failed). */
export function withParams(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.toString();
}
