/**
 * A half-star rating control (docs/entries.md: 1-10 shown as 0.5-5 stars). It is an ARIA
 * slider: arrow keys move half a star, Page Up/Down a whole one, Home clears, End gives five,
 * Delete or Backspace clears; a click or tap sets the half star under the pointer.
 */
import { ratingText } from "../lib/web/entry_format.ts";

/** `value` is 1-10 or null (unrated); `onChange` gets the same scale. */
interface StarRatingProps {
  value: number | null;
  onChange: (value: number | null) => void;
  /** The accessible name, e.g. "Your rating". */
  label: string;
  /** Ids of elements describing the control (a hint). */
  describedBy?: string;
}

const STEP: Record<string, number> = {
  ArrowRight: 1,
  ArrowUp: 1,
  ArrowLeft: -1,
  ArrowDown: -1,
  PageUp: 2,
  PageDown: -2,
};

function clamp(value: number): number | null {
  const v = Math.max(0, Math.min(10, value));
  return v === 0 ? null : v;
}

/** The control; the stars are drawn as text so they follow the colour scheme. */
export function StarRating({ value, onChange, label, describedBy }: StarRatingProps) {
  const current = value ?? 0;
  function onKeyDown(event: KeyboardEvent) {
    let next: number | null | undefined;
    if (event.key in STEP) next = clamp(current + STEP[event.key]);
    else if (event.key === "Home" || event.key === "Delete" || event.key === "Backspace") {
      next = null;
    } else if (event.key === "End") next = 10;
    if (next === undefined) return;
    event.preventDefault();
    if (next !== value) onChange(next);
  }
  function onClick(event: MouseEvent) {
    const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
    if (box.width <= 0) return;
    const half = Math.ceil(((event.clientX - box.left) / box.width) * 10);
    onChange(clamp(half));
  }
  return (
    <div
      class="stars"
      data-value={current}
      role="slider"
      tabIndex={0}
      aria-label={label}
      aria-describedby={describedBy}
      aria-valuemin={0}
      aria-valuemax={5}
      aria-valuenow={current / 2}
      aria-valuetext={ratingText(value)}
      onKeyDown={onKeyDown}
      onClick={onClick}
    >
      <span class="stars-empty" aria-hidden="true">★★★★★</span>
      {/* The width comes from data-value in the stylesheet: the CSP allows no inline style. */}
      <span class="stars-full" aria-hidden="true">★★★★★</span>
    </div>
  );
}
