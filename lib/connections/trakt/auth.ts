/**
 * Who a request on /trakt acts for (docs/trakt.md, "Sign-in"): the user behind a Trakt OAuth
 * token or a personal access token, whether it may write, and the token's id (the limits count
 * per token).
 */

/** The authenticated Trakt caller a /trakt route handler reads from `c.var.traktUser`. */
export interface TraktUser {
  userId: string;
  /** False for a `read` personal access token: such a token may only GET. */
  canWrite: boolean;
  /** The token's own id (`pat:<id>` or `oauth:<id>`), stable across its requests. */
  tokenId: string;
}
