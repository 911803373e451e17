/**
 * The "More" of a list page: a plain link to the next page (no JavaScript needed) that an
 * island's `useMore` turns into appending that page in place. Nothing on the last page.
 */
import type { More } from "../lib/web/use_more.ts";

/** The link, `aria-disabled` (never disabled, so focus stays) while a page is on its way. */
export function MoreLink({ more }: { more: More }) {
  if (!more.next) return null;
  return (
    <p class="list-more">
      <a
        class="button"
        href={more.next.href}
        rel="next"
        aria-disabled={more.loading ? "true" : undefined}
        onClick={more.load}
      >
        {more.loading ? "Loading…" : "More"}
      </a>
    </p>
  );
}
