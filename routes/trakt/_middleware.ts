/** Every /trakt route: Trakt's headers, CORS and Bearer sign-in (docs/trakt.md, "Sign-in"). */
import { traktEdge } from "@/lib/http/middleware/trakt_user.ts";

export const middleware = [traktEdge()];
