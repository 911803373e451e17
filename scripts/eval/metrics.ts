/**
 * The figures of `deno task eval` (docs/recommend.md, "Measuring recommendations"), for one
 * user's ranked picks against the films held out of their history.
 */

/** How many picks are scored. */
export const CUTOFF = 10;

/** 1 when at least one held-out film is among the first `k` picks, else 0. */
export function hitAt(picks: number[], heldOut: number[], k = CUTOFF): number {
  const wanted = new Set(heldOut);
  return picks.slice(0, k).some((id) => wanted.has(id)) ? 1 : 0;
}

/**
 * Normalised discounted cumulative gain at `k` with binary relevance: each held-out film at rank
 * r (1-based) gains 1/log2(r + 1); the sum is divided by the best possible, every held-out film
 * at the top. 0 when nothing is held out.
 */
export function ndcgAt(picks: number[], heldOut: number[], k = CUTOFF): number {
  const wanted = new Set(heldOut);
  let dcg = 0;
  const seen = new Set<number>();
  picks.slice(0, k).forEach((id, i) => {
    if (wanted.has(id) && !seen.has(id)) dcg += 1 / Math.log2(i + 2);
    seen.add(id);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(wanted.size, k); i++) ideal += 1 / Math.log2(i + 2);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** Catalog coverage: the share of the `catalogSize` stored films shown in anyone's first `k`. */
export function coverage(lists: number[][], catalogSize: number, k = CUTOFF): number {
  if (catalogSize === 0) return 0;
  const shown = new Set<number>();
  for (const list of lists) for (const id of list.slice(0, k)) shown.add(id);
  return shown.size / catalogSize;
}
