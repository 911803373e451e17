/**
 * Server rendering of a page: the route's component inside the `_app` shell, as HTML.
 * Two passes share one PageState: the page renders first, so the title it sets and the
 * islands it uses are known when the shell renders the head and the closing scripts.
 */
import { type ComponentType, h } from "preact";
import { renderToString } from "preact-render-to-string";
import type { AppShellProps, Ctx, PageProps } from "./app_env.ts";
import { PageContext, type PageState } from "./page_context.ts";
import { setPageHeaders } from "./page_headers.ts";
import { hasSessionCookie } from "./page_session.ts";

// An element no escaped page text can contain, replaced by the page's HTML after pass two.
const SLOT = "<page-slot></page-slot>";

/** The render state of a request: settings from the config, session staleness. */
function pageState(c: Ctx): PageState {
  const { config } = c.var.deps;
  return {
    islands: new Set(),
    // A session owing its code is not stale: refreshing it would not make it any better.
    staleSession: !c.get("user") && !c.get("codeOwed") && hasSessionCookie(c),
    codeOwed: c.get("codeOwed"),
    imageBaseUrl: config.tmdb.imageBaseUrl,
    unread: c.get("unread"),
    auth: config.supabase ? { url: config.supabase.url, anonKey: config.supabase.anonKey } : {},
    captcha: config.captcha
      ? { provider: config.captcha.provider, siteKey: config.captcha.siteKey }
      : undefined,
  };
}

/** Renders `Page` with `data` inside `Shell` and answers it as an HTML response. */
export function renderPage(
  c: Ctx,
  // deno-lint-ignore no-explicit-any
  pages: { Shell?: ComponentType<AppShellProps>; Page: ComponentType<PageProps<any>> },
  data: unknown,
  init: { status?: number } = {},
): Response {
  const url = new URL(c.req.url);
  const user = c.get("user");
  const { Shell, Page } = pages;
  const state = pageState(c);
  const page = renderToString(
    <PageContext.Provider value={state}>
      <Page data={data} url={url} params={c.req.param() as Record<string, string>} user={user} />
    </PageContext.Provider>,
  );
  // A page that needs an account, asked for by a session that only owes its code: the code step.
  if (state.codeOwed && state.needsAccount) {
    return c.redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`, 303);
  }
  let html = page;
  if (Shell) {
    const shell = renderToString(
      <PageContext.Provider value={state}>
        <Shell url={url} user={user} title={state.title}>
          {h("page-slot", null)}
        </Shell>
      </PageContext.Provider>,
    );
    html = shell.replace(SLOT, () => page);
  }
  const response = c.html("<!DOCTYPE html>" + html, (init.status ?? 200) as 200);
  // Pages show a user's lists: no shared cache may keep them.
  response.headers.set("Cache-Control", user ? "private, no-store" : "no-cache");
  // The service worker keeps a signed-in user's list pages offline in a cache of that user's
  // own, and drops it when a page answers for anyone else (lib/web/pwa/sw_source.js).
  if (user) response.headers.set("X-Offline-Scope", user.id);
  setPageHeaders(response.headers, c.var.deps.config);
  return response;
}
