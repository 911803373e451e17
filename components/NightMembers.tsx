/** Who is in a movie night (islands/NightVote.tsx) and how far each has voted. */
import type { NightView } from "../lib/recommend/night/mod.ts";

/** The members' list: each name, "(you)" for the caller, and their votes of the shortlist. */
export function NightMembers({ night }: { night: NightView }) {
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
