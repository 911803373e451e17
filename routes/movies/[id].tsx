/**
 * `/movies/:id`: a movie's detail, with the Watched and My List buttons for the signed-in user
 * and, on a watched movie, their rating, watch date and note; and where to watch it
 * (`?region=XX`, default WATCH_REGION).
 */
import { Title } from "@/components/Title.tsx";
import { WatchProviders } from "@/components/WatchProviders.tsx";
import { getCookie } from "hono/cookie";
import type { MovieDetail, WatchProviders as Offers } from "@/lib/catalog/mod.ts";
import { readRegion, REGION_COOKIE } from "@/lib/catalog/region_choice.ts";
import type { ListStatus } from "@/lib/library/entries/mod.ts";
import type { Ctx, Handlers, PageProps } from "@/lib/http/app_env.ts";
import { describeError } from "@/lib/core/log.ts";
import { Problem } from "@/lib/core/problem.ts";
import { Poster } from "@/components/Poster.tsx";
import { MoreLikeThis } from "@/components/MoreLikeThis.tsx";
import type { SimilarCard } from "@/lib/recommend/local/mod.ts";
import { AddToList, ListButtons, LogViewing, SeerrRequest } from "@/islands.gen.ts";

interface Data {
  movie: MovieDetail;
  /** The user's state of this movie; undefined when signed out. */
  lists?: ListStatus;
  region: string;
  /** Null when they could not be read: the page shows the movie all the same. */
  offers: Offers | null;
  /**
   * Signed in with services chosen: the names of those that include this movie in `region`
   * (listed first and marked); undefined otherwise.
   */
  mine?: string[];
  /** Whether the user has saved a Seerr: the page shows its Request button. */
  seerr?: boolean;
  /** "More like this" from the stored films (the local model); empty when it cannot say. */
  similar: SimilarCard[];
}

/** The films "More like this" shows. */
const SIMILAR_SHOWN = 6;

const MAX_ID = 2 ** 31 - 1;

export const handler: Handlers = {
  async GET(c) {
    const id = movieId(c);
    const user = c.get("user");
    const [{ value: movie }, lists, services, seerr] = await Promise.all([
      c.var.services.catalog.movie(id),
      user ? c.var.services.entries.status(user.id, id) : undefined,
      user ? c.var.services.myStreaming.settings(user.id) : undefined,
      user ? c.var.services.seerr.settings(user.id) : undefined,
    ]);
    const chosen = services?.providerIds.length ? services : undefined;
    // An unknown region falls back to the reader's remembered one, then the default, rather
    // than failing the movie's page; a region chosen in the form is remembered for a year.
    const asked = readRegion(c.req.query("region"));
    if (asked) {
      c.header(
        "set-cookie",
        `${REGION_COOKIE}=${asked}; Path=/; Max-Age=31536000; SameSite=Lax`,
      );
    }
    // Someone with services chosen sees their services' region unless they pick another here.
    const region = asked ?? readRegion(getCookie(c, REGION_COOKIE)) ?? chosen?.region ??
      c.var.deps.config.tmdb.watchRegion;
    // The detail fetch just stored the providers, so this is a store read unless they are old.
    const offers = await c.var.services.catalog.providers(id, region).then(
      ({ value }) => value,
      (error) => {
        c.var.deps.log({
          level: "warn",
          msg: "movie page providers failed",
          error: describeError(error),
        });
        return null;
      },
    );
    const mine = chosen
      ? await c.var.services.myStreaming.mineOnMovie(id, {
        region,
        providerIds: chosen.providerIds,
      })
      : undefined;
    // The detail fetch stored the movie; "More like this" never fails the page.
    const similar = await c.var.services.localRecommend.similar(id, { limit: SIMILAR_SHOWN })
      .catch((error) => {
        c.var.deps.log({
          level: "warn",
          msg: "more like this failed",
          error: describeError(error),
        });
        return [];
      });
    return c.var.render(
      { movie, lists, region, offers, mine, seerr: Boolean(seerr?.url), similar } satisfies Data,
    );
  },
  // The entry form sent without JavaScript: nothing is saved (a cookie never acts for the user),
  // and the page says so, after a redirect so a reload does not send the form again.
  // The entry form posted without JavaScript: back to the page, which says why nothing was saved.
  POST: (c) => c.redirect(`/movies/${movieId(c)}?unsaved=1#history-heading`, 303),
};

/** The page's movie id; anything else is this page's 404 (never echoed into a header). */
function movieId(c: Ctx): number {
  const raw = c.req.param("id") ?? "";
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : 0;
  if (!id || id > MAX_ID) throw new Problem(404, "not_found", "No movie at this address.");
  return id;
}

function List({ label, items }: { label: string; items: string[] }) {
  if (!items.length) return null;
  return (
    <>
      <dt>{label}</dt>
      <dd>{items.join(", ")}</dd>
    </>
  );
}

export default function Movie({ data, url, user }: PageProps<Data>) {
  const { movie, lists, region, offers, mine } = data;
  const loginHref = `/login?next=${encodeURIComponent(url.pathname)}`;
  // A missing fact is named, not left out: an empty line read as a broken page.
  const facts = [
    movie.year > 0 ? String(movie.year) : "Release date not known yet",
    movie.duration !== "N/A" ? movie.duration : "",
  ].filter(Boolean);
  return (
    <article class="movie" aria-labelledby="movie-title">
      <Title>{movie.year ? `${movie.title} (${movie.year})` : movie.title}</Title>
      <div class="movie-poster">
        <Poster src={movie.poster} title={movie.title} eager />
      </div>
      <div class="movie-body">
        <h1 id="movie-title">{movie.title}</h1>
        <p class="movie-facts">
          {movie.rating > 0
            ? (
              <span class="rating" aria-label={`Rated ${movie.rating.toFixed(1)} out of 10`}>
                ★ {movie.rating.toFixed(1)}
              </span>
            )
            : <span class="rating">Not rated yet</span>}
          {facts.map((f) => <span key={f}>{f}</span>)}
        </p>
        {movie.genres.length
          ? (
            <ul class="chips" aria-label="Genres">
              {movie.genres.map((g) => <li key={g}>{g}</li>)}
            </ul>
          )
          : null}
        {user && url.searchParams.has("unsaved")
          ? (
            <p class="notice notice-error" role="alert">
              Saving a rating, date or note needs JavaScript, so nothing was saved. Turn JavaScript
              on and try again.
            </p>
          )
          : null}
        {user
          ? (
            <>
              <ListButtons
                catalogId={movie.id}
                title={movie.title}
                watched={lists?.watched}
                inMyList={lists?.inMyList}
                entry={lists?.entry}
                loginHref={loginHref}
              />
              <AddToList catalogId={movie.id} title={movie.title} />
              {data.seerr ? <SeerrRequest catalogId={movie.id} title={movie.title} /> : null}
            </>
          )
          : (
            <p class="list-buttons-signin">
              <a href={loginHref}>Sign in</a> to mark this movie watched or add it to My List.
            </p>
          )}
        {user ? <LogViewing catalogId={movie.id} title={movie.title} /> : null}
        {movie.description ? <p class="overview">{movie.description}</p> : null}
        <dl class="credits">
          <List
            label={movie.directors.length > 1 ? "Directors" : "Director"}
            items={movie.directors}
          />
          <List label="Cast" items={movie.actors} />
        </dl>
        {movie.trailer
          ? (
            <p>
              <a
                class="button button-secondary"
                href={movie.trailer}
                rel="noopener"
                target="_blank"
              >
                ▶ Watch the trailer<span class="sr-only">(opens YouTube in a new tab)</span>
              </a>
            </p>
          )
          : null}
        <WatchProviders offers={offers} region={region} path={url.pathname} mine={mine} />
        <MoreLikeThis movies={data.similar} />
      </div>
    </article>
  );
}
