/**
 * Every page request: the page session from the cookie, then the header's unread count. Both do
 * nothing on /api (but /api/docs), /auth, /static and /hooks, so the app leaves them out of
 * those routes' chains altogether (`skip`, lib/http/app_env.ts).
 */
import { unreadCount } from "../lib/http/middleware/unread_count.ts";
import { isCookieFreePath, pageSession } from "../lib/http/page_session.ts";

export const middleware = [pageSession(), unreadCount()];

/** The paths on which this folder's middleware does nothing. */
export const skip = isCookieFreePath;
