/**
 * Where a link or text shared from another app leads (the manifest's share target): a TMDB
 * movie link opens that movie; a Letterboxd film link searches for its title (the slug); an
 * IMDb link or any other text opens search, since TMDB's find-by-IMDb-id is not one of the
 * three external paths the service may call (docs/catalog.md).
 */

/** What /share received: any of the share sheet's fields. */
interface Shared {
  title?: string;
  text?: string;
  url?: string;
}

const TMDB_MOVIE = /^https?:\/\/(?:www\.)?themoviedb\.org\/movie\/(\d{1,10})(?:[-/?#]|$)/i;
const LETTERBOXD_FILM = /^https?:\/\/(?:www\.)?(?:letterboxd\.com|boxd\.it)\/film\/([a-z0-9-]+)/i;
const LINK = /https?:\/\/[^\s<>"]+/i;
// A Letterboxd slug ends in the year or a number when titles clash ("dune-2021", "heat-1").
const SLUG_SUFFIX = /-(?:\d{4}|\d)$/;

/** The site path to open for `shared`: a movie page or a search (at most 200 characters). */
export function shareDestination(shared: Shared): string {
  const text = [shared.url, shared.text].filter(Boolean).join(" ").trim();
  const link = shared.url?.trim() || LINK.exec(text)?.[0] || LINK.exec(shared.title ?? "")?.[0] ||
    "";
  const tmdb = TMDB_MOVIE.exec(link);
  if (tmdb && Number(tmdb[1]) >= 1 && Number(tmdb[1]) <= 2 ** 31 - 1) {
    return `/movies/${Number(tmdb[1])}`;
  }
  const letterboxd = LETTERBOXD_FILM.exec(link);
  if (letterboxd) return search(letterboxd[1].replace(SLUG_SUFFIX, "").replaceAll("-", " "));
  // Other text: what is left once links are taken out, else the share's title (IMDb's is
  // "Title (1995) - IMDb" beside a bare link).
  return search(words(text) || words(shared.title ?? ""));
}

function words(text: string): string {
  return text.replace(new RegExp(LINK.source, "gi"), " ").replace(/\s-\s*IMDb\b/i, " ")
    .replace(/\(\d{4}\)/g, " ").replace(/\s+/g, " ").trim();
}

function search(q: string): string {
  const query = q.replaceAll("\0", "").slice(0, 200).trim();
  return query ? `/search?q=${encodeURIComponent(query)}` : "/search";
}
