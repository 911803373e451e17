/** `/`: the popular movies grid and the search box; signed in, "Rate what you watched". */
import { Notice } from "../components/Notice.tsx";
import { SearchForm } from "../components/SearchForm.tsx";
import { RowGrid } from "../components/SearchResults.tsx";
import { Title } from "../components/Title.tsx";
import type { PopularPage } from "../lib/catalog/mod.ts";
import type { UnratedMovie } from "../lib/library/diary/mod.ts";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import { usePage } from "../lib/http/page_context.ts";
import { type PageFailure, softFail } from "../lib/http/soft_fail.ts";
import { AddToList, NightStart, RateQueue } from "../islands.gen.ts";
import { WatchingNow } from "../components/WatchingNow.tsx";
import type { WatchingNowView } from "../lib/connections/trakt/watching_now.ts";

interface Data {
  popular?: PopularPage;
  failure?: PageFailure;
  /** A one-time word from the flow that led here (`?notice=`): sign-up, account deletion. */
  notice?: keyof typeof NOTICES;
  /** Signed in: the latest watched movies without a rating. */
  unrated?: UnratedMovie[];
  /** Signed in: each card offers "Add to list". */
  signedIn?: boolean;
  /** Signed in: the film a Trakt client is playing now (docs/trakt.md), if any. */
  watching?: WatchingNowView | null;
}

/** How many movies the home page asks to rate. */
const QUEUE_SIZE = 5;

const NOTICES = {
  welcome: "welcome",
  "account-deleted": "Your account is deleted, with your lists, ratings, notes and " +
    "recommendations. Thank you for using Movies.",
} as const;

// Pages past the feed's end or malformed show page 1: a link is never an error here.
function pageOf(raw: string | undefined): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 500 ? n : 1;
}

export const handler: Handlers = {
  async GET(c) {
    const page = pageOf(c.req.query("page"));
    const user = c.get("user");
    const [{ value, failure }, unrated, watching] = await Promise.all([
      softFail(c, () => c.var.services.catalog.popular(page)),
      user && page === 1 ? c.var.services.diary.unrated(user.id, QUEUE_SIZE) : undefined,
      user && page === 1 ? c.var.services.watchingNow.mine(user.id) : undefined,
    ]);
    const asked = c.req.query("notice") ?? "";
    const notice = Object.hasOwn(NOTICES, asked) ? asked as keyof typeof NOTICES : undefined;
    const data = {
      popular: value?.value,
      failure,
      notice,
      unrated,
      signedIn: Boolean(user),
      watching,
    };
    return c.var.render(data satisfies Data, {
      status: failure?.status,
    });
  },
};

export default function Home({ data }: PageProps<Data>) {
  const { imageBaseUrl } = usePage();
  const { popular, failure, notice, unrated, signedIn, watching } = data;
  const page = popular?.page ?? 1;
  return (
    <>
      <Title>{page > 1 ? `Popular movies · page ${page}` : "Popular movies"}</Title>
      {notice === "welcome"
        ? <Welcome moviesBelow={Boolean(popular?.results.length)} />
        : notice
        ? <Notice>{NOTICES[notice]}</Notice>
        : null}
      <section class="hero" aria-labelledby="home-heading">
        <h1 id="home-heading">Find a movie</h1>
        <SearchForm />
      </section>
      {watching ? <WatchingNow watching={watching} /> : null}
      {signedIn && page === 1 ? <NightStart /> : null}
      {unrated?.length
        ? (
          <section aria-labelledby="rate-heading" class="rate-section">
            <h2 id="rate-heading">Rate what you watched</h2>
            <RateQueue movies={unrated} />
          </section>
        )
        : null}
      <section aria-labelledby="popular-heading">
        <h2 id="popular-heading">Popular right now{page > 1 ? ` · page ${page}` : ""}</h2>
        {failure
          ? <Notice kind={failure.status < 400 ? "note" : "error"}>{failure.message}</Notice>
          : null}
        {popular && popular.results.length === 0 ? <Notice>No movies on this page.</Notice> : null}
        {popular?.results.length
          ? (
            <RowGrid
              label="Popular movies"
              rows={popular.results}
              imageBaseUrl={imageBaseUrl}
              level={3}
              actions={signedIn
                ? (row) => <AddToList catalogId={row.id} title={row.title} compact />
                : undefined}
            />
          )
          : null}
        {popular
          ? (
            <nav class="pager" aria-label="Pages">
              {page > 1 ? <a href={page === 2 ? "/" : `/?page=${page - 1}`}>← Previous</a> : null}
              {page < Math.min(popular.totalPages, 500)
                ? <a href={`/?page=${page + 1}`}>More movies →</a>
                : null}
            </nav>
          )
          : null}
      </section>
    </>
  );
}

/**
 * After sign-up: the next step, since recommendations are drawn from what the user watched.
 * `moviesBelow` says whether the popular grid has movies to open (a server without movie data,
 * or a failed feed, shows none: then the search box above is the way).
 */
function Welcome({ moviesBelow }: { moviesBelow: boolean }) {
  return (
    <section class="notice notice-note welcome" aria-labelledby="welcome-heading">
      <h2 id="welcome-heading">Welcome! Your account is ready.</h2>
      <p>
        Recommendations are drawn from the movies you've watched. Start with either:
      </p>
      <ul>
        <li>
          <a href="/import">Import your history</a>{" "}
          from Letterboxd, Trakt or IMDb, ratings and dates included;
        </li>
        <li>
          {moviesBelow
            ? "or open a few movies you've seen below, mark them watched and rate them."
            : "or search for a few movies you've seen, mark them watched and rate them."}
        </li>
      </ul>
    </section>
  );
}
