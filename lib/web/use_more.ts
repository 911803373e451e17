/**
 * "More" on every list page of the website (docs/website.md): the server renders a page of 60
 * and a plain link to `?page=N+1`, which works without JavaScript; with it, the link appends
 * the next page in place from the API (the read the server named, with `cursor`), moves focus
 * to the first new item, and then points at the page after.
 */
import { useState } from "preact/hooks";
import { api, ApiError } from "./api.ts";
import { useFocusAfterRender } from "./use_focus.ts";

/** The next page: its link and the API read that appends it. Absent on the last page. */
export interface NextPage {
  href: string;
  api: string;
}

/** What a list island tells the hook. */
interface MoreOptions<T> {
  /** Send the session's token (the user's own lists); the shared page reads without one. */
  auth: boolean;
  /** The items of an API answer (its `movies` or `entries`). */
  take: (body: Record<string, unknown>) => T[];
  /** Adds the items to the island's state; answers those that were not shown already. */
  append: (items: T[]) => T[];
  /** The selector of a new item's element that takes focus (its link or first button). */
  focusOf: (item: T) => string;
  /** Says what happened in the island's live status line. */
  say: (text: string, error: boolean) => void;
  /** The read to make instead of the page's own (when the island knows the list has moved). */
  apiOf?: (next: NextPage) => string;
}

/** The state "More" renders from, and its click handler. */
export interface More {
  next: NextPage | undefined;
  loading: boolean;
  load: (event: Event) => void;
}

// The link and the read of the page after the one just appended.
function following(next: NextPage, cursor: string): NextPage {
  const href = new URL(next.href, "http://page.invalid");
  href.searchParams.set("page", String(Number(href.searchParams.get("page") ?? "1") + 1));
  const read = new URL(next.api, "http://page.invalid");
  read.searchParams.set("cursor", cursor);
  return { href: `${href.pathname}${href.search}`, api: `${read.pathname}${read.search}` };
}

/** Appending the pages after `first` in place, as `options` shape them. */
export function useMore<T>(first: NextPage | undefined, options: MoreOptions<T>): More {
  const [next, setNext] = useState(first);
  const [loading, setLoading] = useState(false);
  const focusNext = useFocusAfterRender();

  async function fetchNext(page: NextPage) {
    setLoading(true);
    try {
      const { data } = await api<Record<string, unknown> & { nextCursor: string | null }>(
        options.apiOf?.(page) ?? page.api,
        { auth: options.auth },
      );
      const added = options.append(options.take(data));
      setNext(data.nextCursor ? following(page, data.nextCursor) : undefined);
      options.say(
        added.length > 0 ? `Showing ${added.length} more.` : "Nothing more to show.",
        false,
      );
      if (added[0] !== undefined) focusNext(options.focusOf(added[0]));
    } catch (error) {
      options.say(
        error instanceof ApiError && error.status === 401
          ? "Your session has expired. Sign in again to see more."
          : "Couldn't load more. Please try again.",
        true,
      );
    } finally {
      setLoading(false);
    }
  }

  return {
    next,
    loading,
    load(event) {
      if (!next) return;
      event.preventDefault();
      if (!loading) fetchNext(next);
    },
  };
}
