/**
 * The movie night on a phone (docs/nights.md, "The page"): joins by the link's token, shows the
 * members' progress, one poster at a time with Yes and No (keys Y and N), the match with where
 * to stream it and "Log it tonight" (which logs the viewing for whoever presses it, on their own
 * phone), or the closest films when nothing matched. Every phone follows the night's events and
 * reads the night again when one arrives.
 */
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../lib/web/api.ts";
import { cardPosterUrl } from "../lib/web/poster.ts";
import { localToday } from "../lib/web/entry_format.ts";
import { followNight } from "../lib/web/night_events.ts";
import { shareLink } from "../lib/web/share_link.ts";
import type { NightView } from "../lib/recommend/night/mod.ts";
import type { WatchProviders } from "../lib/catalog/mod.ts";

interface Props {
  nightId: string;
  /** The link's token, when the page was opened by the join link. */
  token?: string;
  imageBaseUrl: string;
  /** The region the match's offers are shown for (the user's services', or the site's). */
  region: string;
}

type Film = NightView["shortlist"][number];

const KINDS: ["flatrate" | "free" | "ads" | "rent" | "buy", string][] = [
  ["flatrate", "Stream"],
  ["free", "Free"],
  ["ads", "Free with ads"],
  ["rent", "Rent"],
  ["buy", "Buy"],
];

export default function NightVote({ nightId, token, imageBaseUrl, region }: Props) {
  const [night, setNight] = useState<NightView | null>(null);
  const [problem, setProblem] = useState("");
  const [status, setStatus] = useState("");
  const [busy, setBusy] = useState(false);
  const reading = useRef<Promise<void> | null>(null);
  const again = useRef(false);

  const read = useCallback(async () => {
    // One read at a time; events arriving meanwhile ask for one more after it.
    if (reading.current) {
      again.current = true;
      return;
    }
    reading.current = (async () => {
      try {
        const { data } = await api<NightView>(`/api/nights/${nightId}`, { auth: true });
        setNight(data);
        setProblem("");
      } catch (error) {
        setProblem(messageOf(error));
      }
    })();
    await reading.current;
    reading.current = null;
    if (again.current) {
      again.current = false;
      await read();
    }
  }, [nightId]);

  useEffect(() => {
    let stop = () => {};
    (async () => {
      if (token) {
        try {
          const { data } = await api<NightView>(`/api/nights/${nightId}/join`, {
            method: "POST",
            body: { token },
            auth: true,
          });
          setNight(data);
        } catch (error) {
          return setProblem(messageOf(error));
        }
      } else {
        await read();
      }
      stop = followNight(nightId, {
        onEvent: () => void read(),
        onEnd: () => void read(),
      });
    })();
    return () => stop();
  }, [nightId, token]);

  const current = night ? nextFilm(night) : undefined;

  const vote = useCallback(async (yes: boolean) => {
    if (!night || !current || busy) return;
    setBusy(true);
    try {
      const { data } = await api<NightView>(`/api/nights/${nightId}/votes`, {
        method: "POST",
        body: { catalogId: current.catalogId, vote: yes ? "yes" : "no" },
        auth: true,
      });
      setNight(data);
      setStatus(`${yes ? "Yes" : "No"} to ${current.title}.`);
    } catch (error) {
      setStatus(messageOf(error));
    } finally {
      setBusy(false);
    }
  }, [night, current, busy]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.ctrlKey || e.metaKey || e.altKey || target?.closest("input, textarea, select")) return;
      const key = e.key.toLowerCase();
      if (key === "y" || key === "n") {
        e.preventDefault();
        vote(key === "y");
      }
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, [vote]);

  if (problem) {
    return (
      <div class="night" role="alert">
        <p>{problem}</p>
        <p>
          <a href="/">Back home</a>
        </p>
      </div>
    );
  }
  if (!night) return <p class="night" role="status">Opening the night…</p>;
  const me = night.members.find((m) => m.you);
  const byId = new Map(night.shortlist.map((f) => [f.catalogId, f]));
  const match = night.match === null ? undefined : byId.get(night.match);

  async function start(reshuffle: boolean) {
    setBusy(true);
    try {
      const { data } = await api<NightView>(
        `/api/nights/${nightId}/start${reshuffle ? "?reshuffle=1" : ""}`,
        { method: "POST", auth: true },
      );
      setNight(data);
    } catch (error) {
      setStatus(messageOf(error));
    } finally {
      setBusy(false);
    }
  }

  async function leave() {
    try {
      await api(`/api/nights/${nightId}/members/me`, { method: "DELETE", auth: true });
      location.href = "/";
    } catch (error) {
      setStatus(messageOf(error));
    }
  }

  return (
    <div class="night">
      <Members night={night} />
      {match
        ? <Match film={match} imageBaseUrl={imageBaseUrl} region={region} />
        : !night.started
        ? (
          <div class="night-waiting">
            {me?.creator
              ? (
                <>
                  <p>Send the others the link, and start when they have joined.</p>
                  <button
                    type="button"
                    class="button"
                    disabled={busy}
                    onClick={() => start(false)}
                  >
                    Start the vote
                  </button>
                </>
              )
              : <p role="status">Waiting for the vote to start…</p>}
          </div>
        )
        : night.shortlist.length === 0
        ? <p>No film fits everyone yet: rate a few films, or turn off “only what we can stream”.</p>
        : current
        ? (
          <Poster
            film={current}
            position={night.shortlist.indexOf(current) + 1}
            total={night.shortlist.length}
            imageBaseUrl={imageBaseUrl}
            busy={busy}
            onVote={vote}
          />
        )
        : (
          <div class="night-done">
            <p role="status">
              {night.closest.length
                ? "Everyone has voted and nothing got everyone's yes. Closest:"
                : "You've voted on every film. Waiting for the others…"}
            </p>
            {night.closest.length
              ? (
                <ul class="night-closest">
                  {night.closest.map((c) => (
                    <li key={c.catalogId}>
                      <a href={`/movies/${c.catalogId}`}>{byId.get(c.catalogId)?.title}</a> ({c.yes}
                      {" "}
                      of {night.members.length} said yes)
                    </li>
                  ))}
                </ul>
              )
              : null}
            {me?.creator
              ? (
                <button type="button" class="button" disabled={busy} onClick={() => start(true)}>
                  Reshuffle: 12 new films
                </button>
              )
              : null}
          </div>
        )}
      <p role="status" class="night-status">{status}</p>
      {match ? null : <InviteButton />}
      <p>
        <button type="button" class="link-button" onClick={leave}>Leave this night</button>
      </p>
    </div>
  );
}

/** The first film of the shortlist the caller has not voted on. */
function nextFilm(night: NightView): Film | undefined {
  const voted = new Set(night.myVotes.map((v) => v.catalogId));
  return night.shortlist.find((f) => !voted.has(f.catalogId));
}

function messageOf(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 404) return "This movie night can't be found. Ask for a new link.";
    if (error.status === 410) return "This movie night has ended.";
    return error.message;
  }
  return "Something went wrong.";
}

function Members({ night }: { night: NightView }) {
  const total = night.shortlist.length;
  return (
    <section class="night-members" aria-labelledby="night-members-heading">
      <h2 id="night-members-heading" class="sr-only">Who's here</h2>
      <ul>
        {night.members.map((m, i) => (
          <li key={i} class={m.voted ? "night-member night-member-done" : "night-member"}>
            <span class="night-member-name">
              {m.you ? `${m.displayName} (you)` : m.displayName}
            </span>
            {total
              ? (
                <span class="night-member-progress">
                  {m.voted ? "✓ done" : `${m.votes} of ${total}`}
                </span>
              )
              : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

function Poster(
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

function Match(
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

/**
 * Shares the page's own link (the join link it was opened by; anyone who came by it may pass it
 * on, latecomers included) through the share sheet or a copy.
 */
function InviteButton() {
  const [said, setSaid] = useState("");
  const url = typeof location === "undefined" ? "" : location.href;
  if (!url.includes("token=")) return null;
  return (
    <p>
      <button type="button" class="link-button" onClick={() => shareLink(url).then(setSaid)}>
        Invite people
      </button>{" "}
      <span role="status">{said}</span>
    </p>
  );
}
