/** /api/recommend and /api/recommend/quota: quota headers first, so they reach a 401 too. */
import { quotaHeadersMiddleware } from "../../../lib/http/middleware/quota_headers.ts";
import { requireUser } from "../../../lib/http/middleware/require_user.ts";

export const middleware = [quotaHeadersMiddleware(), requireUser()];
