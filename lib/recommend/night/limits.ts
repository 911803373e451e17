/** The numbers of a movie night (docs/nights.md). */

/** Most members of one night, the creator included. */
export const MAX_MEMBERS = 8;

/** Films on a shortlist. */
export const SHORTLIST_SIZE = 12;

/** How long a night lasts from its creation. */
export const NIGHT_TTL_MS = 24 * 60 * 60 * 1000;

/** Most characters of a night's name. */
export const MAX_NAME_LENGTH = 80;

/** Expired nights are kept this long (the page says "this night has ended"), then deleted. */
export const KEEP_EXPIRED_MS = 7 * 24 * 60 * 60 * 1000;
