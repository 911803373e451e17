/** One movie in a grid: poster, title and a line of facts; the whole card opens its page. */
import type { ComponentChildren } from "preact";
import { Poster } from "./Poster.tsx";

/** What a card shows; `children` are actions below it (e.g. a remove button). */
interface MovieCardProps {
  id: number;
  title: string;
  posterUrl: string;
  /** Year, genres, rating...: already formatted. */
  facts?: string;
  /** More lines under the facts (the user's rating and watch date). */
  details?: ComponentChildren;
  /** The title's heading level: 2 under a page's h1, 3 under a section's h2. */
  level?: 2 | 3;
  /** Why it is shown (a recommendation's reason): one plain-text line. */
  reason?: string;
  children?: ComponentChildren;
}

/**
 * A card. The link wraps only the title, so its accessible name is the title alone; CSS
 * stretches its hit area over the card (actions stay above it).
 */
export function MovieCard(
  { id, title, posterUrl, facts, reason, details, level = 2, children }: MovieCardProps,
) {
  const name = title || `Movie #${id}`;
  const Heading = level === 3 ? "h3" : "h2";
  return (
    <article class="card">
      <Poster src={posterUrl} title={name} />
      <Heading class="card-title">
        <a class="card-link" href={`/movies/${id}`}>{name}</a>
      </Heading>
      {facts ? <p class="card-facts">{facts}</p> : null}
      {reason ? <p class="card-reason">{reason}</p> : null}
      {details}
      {children ? <div class="card-actions">{children}</div> : null}
    </article>
  );
}

/** The facts line of a card: year and the first two genres, skipping what is unknown. */
export function cardFacts(year: number, genres: string[], rating?: number): string {
  const parts: string[] = [];
  if (year > 0) parts.push(String(year));
  if (genres.length) parts.push(genres.slice(0, 2).join(", "));
  if (rating) parts.push(`★ ${rating.toFixed(1)}`);
  return parts.join(" · ");
}
