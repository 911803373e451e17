/**
 * A shortlisted film's reasons in shared tastes only ("Both of you love heist films", "All three
 * of you like Michael Mann"): the features of the film several members are drawn to, never a
 * film a member watched or rated, nor a rating (docs/nights.md, "Reasons").
 */
import type { MemberScore } from "./ranking.ts";

const WORDS = ["", "one", "two", "three", "four", "five", "six", "seven", "eight"];

/** Most reasons a film carries. */
const MAX_REASONS = 2;

function group(count: number, total: number): string {
  if (total === 1) return "You";
  if (count === total) return total === 2 ? "Both of you" : `All ${WORDS[total]} of you`;
  const n = WORDS[count] ?? String(count);
  return `${n[0].toUpperCase()}${n.slice(1)} of you`;
}

/**
 * The reasons of one film from its members' traits: the traits most members share first (at
 * least two of them, or the one member of a night alone), "love" when everybody shares it.
 * `forbidden` holds lower-cased titles no reason may contain (the members' own films).
 */
export function sharedReasons(
  members: MemberScore[],
  options: { forbidden?: (label: string) => boolean } = {},
): string[] {
  const total = members.length;
  const counts = new Map<string, number>();
  for (const m of members) {
    for (const trait of new Set(m.traits)) counts.set(trait, (counts.get(trait) ?? 0) + 1);
  }
  const needed = Math.min(2, total);
  const shared = [...counts].filter(([label, count]) =>
    count >= needed && label.trim() !== "" && !options.forbidden?.(label)
  ).sort((a, b) => b[1] - a[1]);
  const reasons = shared.slice(0, MAX_REASONS).map(([label, count]) => {
    const who = group(count, total);
    const verb = count === total && total > 1 ? "love" : "like";
    return `${who} ${who === "You" ? "like" : verb} ${label}`;
  });
  if (reasons.length > 0) return reasons;
  return [total === 1 ? "A good fit for your taste" : "Nobody's taste is against it"];
}
