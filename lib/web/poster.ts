/** Poster URLs (server and browser): TMDB's image root + a size + the poster path. */

/** Card posters: wide enough for a two-column phone grid at 2x. */
const CARD_POSTER_SIZE = "w342";

/** The URL of `posterPath` at `size`, or "" when there is no poster. */
export function cardPosterUrl(
  imageBaseUrl: string,
  posterPath: string,
  size = CARD_POSTER_SIZE,
): string {
  if (!posterPath) return "";
  const path = posterPath.startsWith("/") ? posterPath : `/${posterPath}`;
  return `${imageBaseUrl.replace(/\/+$/, "")}/${size}${path}`;
}
