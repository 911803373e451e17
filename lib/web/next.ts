/** Where sign-in returns to: a path on this site only, never another origin (open redirect). */

/** `raw` when it is a local path ("/x", not "//host" or "/\\host"), else "/". */
export function safeNext(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith("/") || raw.startsWith("//") || raw.startsWith("/\\")) return "/";
  // deno-lint-ignore no-control-regex -- control characters (CR, LF, tab) must never pass
  if (/[\x00-\x1f\x7f]/.test(raw) || raw.length > 500) return "/";
  return raw;
}
