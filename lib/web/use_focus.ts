/**
 * Moves keyboard focus after the render that shows a change: an island calls `focusNext` with a
 * selector when the element to focus (an Undo button, a restored card's button) is not on the
 * page yet, and the effect after the next render focuses it. Focus never falls to the page.
 */
import { useLayoutEffect, useRef, useState } from "preact/hooks";

/** `focusNext(selector)`: focus the first element matching it once it is rendered. */
export function useFocusAfterRender(): (selector: string) => void {
  const pending = useRef<string | null>(null);
  const [, rerender] = useState(0);
  // A layout effect: focus moves in the same task as the render that removed the old control,
  // so nothing (a screen reader, a key press) ever finds it on the page in between.
  useLayoutEffect(() => {
    if (!pending.current) return;
    const target = document.querySelector<HTMLElement>(pending.current);
    if (!target) return;
    pending.current = null;
    target.focus();
  });
  return (selector) => {
    pending.current = selector;
    rerender((n) => n + 1);
  };
}
