/**
 * The movie night on a phone (docs/nights.md, "The page"): joins by the link's token, shows the
 * members' progress, one poster at a time with Yes and No (keys Y and N), the match with where
 * to stream it and "Log it tonight" (which logs the viewing for whoever presses it, on their own
 * phone), or the closest films when nothing matched. Every phone follows the night's events and
 * reads the night again when one arrives.
 */
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../lib/web/api.ts";
import { followNight } from "../lib/web/night_events.ts";
import type { NightView } from "../lib/recommend/night/mod.ts";
import { NightMembers } from "../components/NightMembers.tsx";
import { NightFilmCard } from "../components/NightFilmCard.tsx";
import { NightMatch } from "../components/NightMatch.tsx";
import { NightInvite } from "../components/NightInvite.tsx";
import { NightVotedAll } from "../components/NightVotedAll.tsx";

interface Props {
  nightId: string;
  /** The link's token, when the page was opened by the join link. */
  token?: string;
  imageBaseUrl: string;
  /** The region the match's offers are shown for (the user's services', or the site's). */
  region: string;
}

type Film = NightView["shortlist"][number];

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
      <NightMembers night={night} />
      {match
        ? <NightMatch film={match} imageBaseUrl={imageBaseUrl} region={region} />
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
          <NightFilmCard
            film={current}
            position={night.shortlist.indexOf(current) + 1}
            total={night.shortlist.length}
            imageBaseUrl={imageBaseUrl}
            busy={busy}
            onVote={vote}
          />
        )
        : (
          <NightVotedAll
            night={night}
            creator={Boolean(me?.creator)}
            busy={busy}
            onReshuffle={() => start(true)}
          />
        )}
      <p role="status" class="night-status">{status}</p>
      {match ? null : <NightInvite />}
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
