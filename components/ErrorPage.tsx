/** The page of a failed request (routes/_404.tsx and routes/_500.tsx): what happened, where to go. */
import { SearchForm } from "./SearchForm.tsx";
import { Title } from "./Title.tsx";

/** The problem document app.ts renders the error pages with. */
export interface ProblemData {
  status?: number;
  code?: string;
  detail?: string;
}

const HEADINGS: Record<number, string> = {
  400: "That request didn't work",
  404: "Page not found",
  405: "Not allowed here",
  429: "Too many requests",
  503: "Temporarily unavailable",
};

/** Headline and explanation by status; the detail of a 5xx is never shown (it says nothing useful). */
export function ErrorPage({ problem }: { problem?: ProblemData }) {
  const status = problem?.status ?? 500;
  // A server without movie data is missing a setting, not broken: the page says what is missing
  // (as the home page's note does) instead of "Error 500 · Something went wrong".
  if (problem?.code === "catalog_not_configured") return <NotConfigured />;
  const heading = HEADINGS[status] ?? (status >= 500 ? "Something went wrong" : "Error");
  const text = status === 404
    ? problem?.code === "movie_not_found"
      ? "We couldn't find that movie. It may have been removed from the catalog."
      : "There's nothing at this address. Try a search instead."
    : status >= 500 && status !== 503
    ? "Something broke on our side. Please try again in a moment."
    : problem?.detail ?? "Please try again.";
  return (
    <section class="error-page" aria-labelledby="error-heading">
      <Title>{heading}</Title>
      <p class="error-status">Error {status}</p>
      <h1 id="error-heading">{heading}</h1>
      <p>{text}</p>
      <SearchForm />
      <p>
        <a href="/">Back to popular movies</a>
      </p>
    </section>
  );
}

/** The movie page of a server with no TMDB credentials. */
function NotConfigured() {
  const heading = "Movie details aren't available yet";
  return (
    <section class="error-page" aria-labelledby="error-heading">
      <Title>{heading}</Title>
      <h1 id="error-heading">{heading}</h1>
      <p>
        This server has no movie database credentials yet: whoever runs it sets{" "}
        <code>TMDB_API_KEY</code> or{" "}
        <code>TMDB_READ_ACCESS_TOKEN</code>. Your lists, diary and account work meanwhile.
      </p>
      <p>
        <a href="/">Back to the home page</a>
      </p>
    </section>
  );
}
