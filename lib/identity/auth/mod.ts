/** Identity: who the bearer of an access token is (a barrel; auth's own files import siblings). */
export type { AuthUser } from "./types.ts";
export { PendingSession } from "./pending_session.ts";
