/** Every request: the page session from the cookie (skipped on /api, /auth and /static). */
import { unreadCount } from "../lib/http/middleware/unread_count.ts";
import { pageSession } from "../lib/http/page_session.ts";

export const middleware = [pageSession(), unreadCount()];
