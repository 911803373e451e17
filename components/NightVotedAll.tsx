/**
 * A movie night once the caller has voted on every film (islands/NightVote.tsx): waiting for the
 * others, or the closest films when nothing got everyone's yes, and the creator's reshuffle.
 */
import type { NightView } from "../lib/recommend/night/mod.ts";

/** The closest films by their yeses, linked by title; the reshuffle for the creator alone. */
export function NightVotedAll(
  { night, creator, busy, onReshuffle }: {
    night: NightView;
    creator: boolean;
    busy: boolean;
    onReshuffle: () => void;
  },
) {
  const byId = new Map(night.shortlist.map((f) => [f.catalogId, f]));
  return (
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
                <a href={`/movies/${c.catalogId}`}>{byId.get(c.catalogId)?.title}</a> ({c.yes} of
                {" "}
                {night.members.length} said yes)
              </li>
            ))}
          </ul>
        )
        : null}
      {creator
        ? (
          <button type="button" class="button" disabled={busy} onClick={onReshuffle}>
            Reshuffle: 12 new films
          </button>
        )
        : null}
    </div>
  );
}
