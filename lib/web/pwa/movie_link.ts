/**
 * Where a link or text shared from another app leads (the manifest's share target): a TMDB
 * movie link opens that movie; a Letterboxd film (its `/film/<slug>/` link, or the app's
 * "Title (2019) on Letterboxd https://boxd.it/..." text) names a film that a title search may
 * find (routes/share.ts opens it when the search has one clear match, else the search); an IMDb
 * link or any other text opens search, since TMDB's find-by-IMDb-id is not one of the three
 * external paths the service may call (docs/catalog.md).
 */

/** What /share received: any of the share sheet's fields. */
interface Shared {
  title?: string;
  text?: string;
  url?: string;
}

/** A film a share names by title, and the release year when the share gives one. */
interface SharedFilm {
  title: string;
  year?: number;
}

/** Where a share leads: `path` to open, unless a title search finds exactly one of `films`. */
interface ShareTarget {
  path: string;
  /** Titles to try in order (a Letterboxd share); absent for any other share. */
  films?: SharedFilm[];
}

const TMDB_MOVIE = /^https?:\/\/(?:www\.)?themoviedb\.org\/movie\/(\d{1,10})(?:[-/?#]|$)/i;
const LETTERBOXD_FILM = /^https?:\/\/(?:www\.)?(?:letterboxd\.com|boxd\.it)\/film\/([a-z0-9-]+)/i;
const LINK = /https?:\/\/[^\s<>"]+/i;
// A Letterboxd slug ends in the year or a number when titles clash ("dune-2021", "heat-1").
const SLUG_SUFFIX = /-(\d{4}|\d)$/;
// Letterboxd's share text: "Quiet Harbor (2019) on Letterboxd" (the year when it knows one).
const ON_LETTERBOXD = /\s+on\s+Letterboxd\b[.!]?/i;
const YEAR = /\((\d{4})\)/;

/** The site path to open for `shared` without asking the catalog: a movie page or a search. */
export function shareDestination(shared: Shared): string {
  return shareTarget(shared).path;
}

/** Where `shared` leads, and for a Letterboxd film the titles a search may find it by. */
export function shareTarget(shared: Shared): ShareTarget {
  const text = [shared.url, shared.text].filter(Boolean).join(" ").trim();
  const link = shared.url?.trim() || LINK.exec(text)?.[0] || LINK.exec(shared.title ?? "")?.[0] ||
    "";
  const tmdb = TMDB_MOVIE.exec(link);
  if (tmdb && Number(tmdb[1]) >= 1 && Number(tmdb[1]) <= 2 ** 31 - 1) {
    return { path: `/movies/${Number(tmdb[1])}` };
  }
  const slug = LETTERBOXD_FILM.exec(link)?.[1];
  if (slug) return letterboxdSlug(slug.toLowerCase());
  // The Letterboxd app shares a film as "Title (Year) on Letterboxd" with a short boxd.it link.
  const said = [text, shared.title ?? ""].find((t) => ON_LETTERBOXD.test(t));
  if (said !== undefined) {
    const title = words(said.replace(ON_LETTERBOXD, " "));
    const year = plausibleYear(YEAR.exec(said.replace(new RegExp(LINK.source, "gi"), " "))?.[1]);
    return title ? { path: search(title), films: [film(title, year)] } : { path: search("") };
  }
  // Other text: what is left once links are taken out, else the share's title (IMDb's is
  // "Title (1995) - IMDb" beside a bare link).
  return { path: search(words(text) || words(shared.title ?? "")) };
}

// "dune-2021" is Dune of 2021; "blade-runner-2049" may be a title ending in a number, so the
// whole slug is tried after the title without its suffix; "heat-1" only tells clashes apart.
function letterboxdSlug(slug: string): ShareTarget {
  const suffix = SLUG_SUFFIX.exec(slug);
  const base = (suffix ? slug.slice(0, suffix.index) : slug).replaceAll("-", " ").trim();
  const whole = slug.replaceAll("-", " ").trim();
  const films = [film(base, plausibleYear(suffix?.[1]))];
  if (suffix && whole !== base) films.push(film(whole));
  return { path: search(base), films: films.filter((f) => f.title) };
}

function film(title: string, year?: number): SharedFilm {
  const clean = title.replaceAll("\0", "").slice(0, 200).trim();
  return year === undefined ? { title: clean } : { title: clean, year };
}

// The years a film can have (the diary's earliest date to well past today).
function plausibleYear(digits: string | undefined): number | undefined {
  const year = Number(digits);
  return digits?.length === 4 && year >= 1874 && year <= 2100 ? year : undefined;
}

function words(text: string): string {
  return text.replace(new RegExp(LINK.source, "gi"), " ").replace(/\s-\s*IMDb\b/i, " ")
    .replace(/\(\d{4}\)/g, " ").replace(/\s+/g, " ").trim();
}

function search(q: string): string {
  const query = q.replaceAll("\0", "").slice(0, 200).trim();
  return query ? `/search?q=${encodeURIComponent(query)}` : "/search";
}
