/**
 * /api/recommend and /api/recommend/quota: quota headers first, so they reach a 401 too. A GET
 * leaves the session's check to the route's read (GET /api/recommend folds it into its first
 * statement; the others check it after, by a query of their own).
 */
import { quotaHeadersMiddleware } from "@/lib/http/middleware/quota_headers.ts";
import { requireUser } from "@/lib/http/middleware/require_user.ts";

export const middleware = [quotaHeadersMiddleware(), requireUser({ readChecksSession: true })];

// Local picks and 👍/👎 spend no quota (docs/recommend.md, "Local picks"): no quota headers, and
// no KV read for them; each of those routes requires the user itself.
const QUOTA_FREE = new Set(["/api/recommend/local", "/api/recommend/feedback"]);

/** The paths on which this folder's middleware does nothing. */
export const skip = (path: string): boolean => QUOTA_FREE.has(path);
