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
  const heading = HEADINGS[status] ?? (status >= 500 ? "Something went wrong" : "Error");
  const text = problem?.code === "catalog_not_configured"
    ? "Movie details aren't available: this server has no movie database credentials yet."
    : status === 404
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
