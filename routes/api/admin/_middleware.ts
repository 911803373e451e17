/** /api/admin/*: the admin token first, so a 401 comes before any body parsing. */
import { requireAdminToken } from "@/lib/http/middleware/admin_token.ts";

export const middleware = [requireAdminToken()];
