/** The film up for a vote in a movie night (islands/NightVote.tsx): its poster, No and Yes. */
import type { NightView } from "../lib/recommend/night/mod.ts";
import { cardPosterUrl } from "../lib/web/poster.ts";

/** One film of a night's shortlist. */
type Film = NightView["shortlist"][number];

/** The card: "Film N of M", the title, the poster, the two buttons, the keys and the reasons. */
export function NightFilmCard(
  { film, position, total, imageBaseUrl, busy, onVote }: {
    film: Film;
    position: number;
    total: number;
    imageBaseUrl: string;
    busy: boolean;
    onVote: (yes: boolean) => void;
  },
) {
  const src = cardPosterUrl(imageBaseUrl, film.posterPath);
  return (
    <article class="night-card" aria-labelledby="night-film-title">
      <p class="night-count">Film {position} of {total}</p>
      <h2 id="night-film-title">
        {film.title} {film.year ? <span class="muted">({film.year})</span> : null}
      </h2>
      {src
        ? <img class="night-poster" src={src} alt={`Poster of ${film.title}`} />
        : <div class="night-poster night-poster-missing" aria-hidden="true">{film.title}</div>}
      <div class="night-buttons">
        <button
          type="button"
          class="button night-no"
          aria-keyshortcuts="N"
          disabled={busy}
          onClick={() => onVote(false)}
        >
          No<span class="sr-only">to {film.title}</span>
        </button>
        <button
          type="button"
          class="button night-yes"
          aria-keyshortcuts="Y"
          disabled={busy}
          onClick={() => onVote(true)}
        >
          Yes<span class="sr-only">to {film.title}</span>
        </button>
      </div>
      <p class="night-keys muted" aria-hidden="true">
        Keys: <kbd>Y</kbd> yes, <kbd>N</kbd> no
      </p>
      <ul class="night-reasons">
        {film.reasons.map((r) => <li key={r}>{r}</li>)}
      </ul>
    </article>
  );
}
