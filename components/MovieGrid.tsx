/** A responsive grid of movie cards, as a list so screen readers announce the count. */
import { type ComponentChildren, toChildArray, type VNode } from "preact";

/** `label` names the list for assistive technology; each child's key keys its item. */
export function MovieGrid({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <ul class="grid" aria-label={label}>
      {toChildArray(children).map((child, i) => <li key={(child as VNode).key ?? i}>{child}</li>)}
    </ul>
  );
}
