/**
 * What one page render shares between the route's page, the components and the `_app`
 * shell: the islands used (so the shell loads those islands' scripts only), the
 * title a page sets, and the site settings the browser needs.
 */
import { createContext } from "preact";
import { useContext } from "preact/hooks";

/** The state of one page render. */
export interface PageState {
  /** Names of the islands rendered so far, in first-use order. */
  islands: Set<string>;
  /** The document title a page set with <Title>; the shell adds the site name. */
  title?: string;
  /** A session cookie came with the request but did not verify (expired or foreign). */
  staleSession: boolean;
  /** The cookie's session owes its two-factor code (`c.var.codeOwed`). */
  codeOwed?: boolean;
  /** The page told a signed-out visitor it needs an account (components/SignInPrompt.tsx). */
  needsAccount?: boolean;
  /** TMDB's image root (config.tmdb.imageBaseUrl), for poster URLs. */
  imageBaseUrl: string;
  /** Where the browser's supabase-js signs in: Supabase when configured, else this site. */
  auth: { url?: string; anonKey?: string };
  /** Extra <meta> tags a page asks for (Open Graph, robots), as attribute maps. */
  meta?: Record<string, string>[];
  /** The captcha widget of the signup page, when signup verifies captchas. */
  captcha?: { provider: "turnstile" | "hcaptcha"; siteKey: string };
  /** The signed-in user's unread notifications (the header's bell). */
  unread?: number;
}

/** A fresh state for a render without a request (tests of a lone component). */
export function emptyPageState(): PageState {
  return {
    islands: new Set(),
    staleSession: false,
    imageBaseUrl: "https://image.tmdb.org/t/p",
    auth: {},
  };
}

/** The render's shared state; a default one outside renderPage. */
export const PageContext = createContext<PageState>(emptyPageState());

/** The current render's state. */
export function usePage(): PageState {
  return useContext(PageContext);
}
