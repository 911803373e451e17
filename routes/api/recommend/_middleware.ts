/**
 * /api/recommend and /api/recommend/quota: quota headers first, so they reach a 401 too. A GET
 * leaves the session's check to the route's read (GET /api/recommend folds it into its first
 * statement; the others check it after, by a query of their own).
 */
import { quotaHeadersMiddleware } from "@/lib/http/middleware/quota_headers.ts";
import { requireUser } from "@/lib/http/middleware/require_user.ts";

export const middleware = [quotaHeadersMiddleware(), requireUser({ readChecksSession: true })];
