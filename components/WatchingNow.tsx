/**
 * "Watching now" (docs/trakt.md, "Other apps"): the film a Trakt client is scrobbling or checked in
 * to, with how far along it is (from its start and runtime, as of the page's render) and when it
 * ends. Shown on the home page for the user and on a public profile for its owner.
 */
import type { WatchingNowView } from "../lib/connections/trakt/watching_now.ts";
import { LocalTime } from "./LocalTime.tsx";

/** The section; `whose` names the watcher on a profile ("Anna is watching"), else "you". */
export function WatchingNow({ watching, whose }: { watching: WatchingNowView; whose?: string }) {
  const name = watching.title || `Movie #${watching.catalogId}`;
  const progress = Math.max(0, Math.min(100, Math.round(watching.progress)));
  return (
    <section class="watching-now" aria-labelledby="watching-heading">
      <h2 id="watching-heading">{whose ? `${whose} is watching` : "Watching now"}</h2>
      <p>
        <a href={`/movies/${watching.catalogId}`}>{name}</a>
        {watching.year ? ` (${watching.year})` : ""}
        {watching.action === "checkin" ? " · checked in" : ""}
      </p>
      <progress class="bar" max={100} value={progress} aria-label={`${name}: ${progress}% watched`}>
        {progress}%
      </progress>
      <p class="hint">
        {progress}% · ends <LocalTime iso={watching.expiresAt} style="time" />
      </p>
    </section>
  );
}
