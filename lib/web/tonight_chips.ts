/**
 * The chips of the /tonight page (islands/Tonight.tsx): each part of the interpretation as a
 * label, with the interpretation without it, so removing a chip asks again with the rest.
 */
import type { Interpretation } from "../recommend/tonight/mod.ts";

/** One removable chip: its label and the interpretation without it. */
export interface Chip {
  id: string;
  label: string;
  without: (it: Interpretation) => Interpretation;
}

const languageNames = (() => {
  try {
    return new Intl.DisplayNames(["en"], { type: "language" });
  } catch {
    return null;
  }
})();

/** The chips of `it` in the page's order; `moodLabel` names a mood preset by its key. */
export function chipsOf(it: Interpretation, moodLabel: (key: string) => string): Chip[] {
  const chips: Chip[] = [];
  const drop = <K extends keyof Interpretation>(key: K, value: unknown) => (i: Interpretation) => ({
    ...i,
    [key]: (i[key] as unknown[]).filter((v) => v !== value),
  });
  for (const g of it.genres) chips.push({ id: `g-${g}`, label: g, without: drop("genres", g) });
  for (const g of it.excludeGenres) {
    chips.push({ id: `x-${g}`, label: `No ${g}`, without: drop("excludeGenres", g) });
  }
  for (const m of it.moods) {
    chips.push({ id: `m-${m}`, label: moodLabel(m), without: drop("moods", m) });
  }
  if (it.runtimeMax !== null) {
    chips.push({
      id: "runtime",
      label: `Up to ${it.runtimeMax} min`,
      without: (i) => ({ ...i, runtimeMax: null }),
    });
  }
  if (it.yearFrom !== null || it.yearTo !== null) {
    const label = it.yearFrom !== null && it.yearTo !== null
      ? `${it.yearFrom}–${it.yearTo}`
      : it.yearFrom !== null
      ? `From ${it.yearFrom}`
      : `Up to ${it.yearTo}`;
    chips.push({ id: "years", label, without: (i) => ({ ...i, yearFrom: null, yearTo: null }) });
  }
  for (const l of it.languages) {
    chips.push({
      id: `l-${l}`,
      label: `In ${languageNames?.of(l) ?? l}`,
      without: drop("languages", l),
    });
  }
  if (it.onlyMine) {
    chips.push({
      id: "mine",
      label: "Only what I can stream",
      without: (i) => ({ ...i, onlyMine: false }),
    });
  }
  if (it.fromMyList) {
    chips.push({
      id: "list",
      label: "From My List",
      without: (i) => ({ ...i, fromMyList: false }),
    });
  }
  for (const s of it.similarTo) {
    chips.push({
      id: `s-${s.catalogId}`,
      label: `Like ${s.title}`,
      without: (i) => ({ ...i, similarTo: i.similarTo.filter((x) => x.catalogId !== s.catalogId) }),
    });
  }
  return chips;
}
