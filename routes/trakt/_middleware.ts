/**
 * Every /trakt route: Trakt's headers, CORS and Bearer sign-in, then the caller's due check-in
 * logged (docs/trakt.md, "Sign-in", "Writes and scrobbles").
 */
import { settleCheckins } from "@/lib/http/middleware/trakt_checkin.ts";
import { traktEdge } from "@/lib/http/middleware/trakt_user.ts";

export const middleware = [traktEdge(), settleCheckins()];
