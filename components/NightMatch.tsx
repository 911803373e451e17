/**
 * A movie night's match (islands/NightVote.tsx): the film, "Log it tonight" (the viewing in the
 * presser's own diary) and where to watch it in the night's region.
 */
import { useEffect, useState } from "preact/hooks";
import type { NightView } from "../lib/recommend/night/mod.ts";
import type { WatchProviders } from "../lib/catalog/mod.ts";
import { api, ApiError } from "../lib/web/api.ts";
import { cardPosterUrl } from "../lib/web/poster.ts";
import { localToday } from "../lib/web/entry_format.ts";

/** One film of a night's shortlist. */
type Film = NightView["shortlist"][number];

const KINDS: ["flatrate" | "free" | "ads" | "rent" | "buy", string][] = [
  ["flatrate", "Stream"],
  ["free", "Free"],
  ["ads", "Free with ads"],
  ["rent", "Rent"],
  ["buy", "Buy"],
];

/** The match section; the offers are fetched once the match is known. */
export function NightMatch(
  { film, imageBaseUrl, region }: { film: Film; imageBaseUrl: string; region: string },
) {
  const [offers, setOffers] = useState<WatchProviders | null>(null);
  const [logged, setLogged] = useState("");
  useEffect(() => {
    api<WatchProviders>(`/api/movies/${film.catalogId}/providers?region=${region}`)
      .then(({ data }) => setOffers(data), () => setOffers(null));
  }, [film.catalogId, region]);
  async function log() {
    setLogged("Saving…");
    try {
      await api("/api/diary", {
        method: "POST",
        body: { catalogId: film.catalogId, watchedOn: localToday(), rating: null, note: null },
        auth: true,
      });
      setLogged(`Logged “${film.title}” tonight in your diary.`);
    } catch (error) {
      setLogged(error instanceof ApiError ? error.message : "Something went wrong.");
    }
  }
  const src = cardPosterUrl(imageBaseUrl, film.posterPath);
  const any = offers && KINDS.some(([k]) => offers[k]?.length);
  return (
    <section class="night-match" aria-labelledby="night-match-heading">
      <div aria-live="polite">
        <h2 id="night-match-heading">It's a match: {film.title}!</h2>
      </div>
      {src ? <img class="night-poster" src={src} alt={`Poster of ${film.title}`} /> : null}
      <button type="button" class="button" onClick={log}>Log it tonight</button>
      <p class="muted">
        Logs the viewing in your own diary; everyone who watches presses it on their phone.
      </p>
      <p role="status">{logged}</p>
      <h3>Where to watch</h3>
      {any
        ? KINDS.map(([kind, label]) =>
          offers![kind]?.length
            ? (
              <div key={kind} class="provider-kind">
                <h4>{label}</h4>
                <ul class="providers" aria-label={label}>
                  {offers![kind]!.map((p, i) => (
                    <li key={`${i}-${p.name}`} class="provider">
                      {p.logo
                        ? <img src={p.logo} alt={p.name} width={46} height={46} loading="lazy" />
                        : null}
                      <span class="provider-name" aria-hidden={p.logo ? "true" : undefined}>
                        {p.name}
                      </span>
                    </li>
                  ))}
                </ul>
              </div>
            )
            : null
        )
        : (
          <p>
            No offers known for {region}. <a href={`/movies/${film.catalogId}`}>See the film</a>
          </p>
        )}
    </section>
  );
}
