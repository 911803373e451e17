/** The HTML shell of every page: head, skip link, header with the session, main, footer. */
import { SiteFooter } from "../components/SiteFooter.tsx";
import { SiteHeader } from "../components/SiteHeader.tsx";
import SessionRefreshIsland from "../islands/SessionRefresh.tsx";
import type { AppShellProps } from "../lib/http/app_env.ts";
import { island } from "../lib/http/island.tsx";
import { usePage } from "../lib/http/page_context.ts";
import { assetUrl } from "../lib/http/static.ts";

const SessionRefresh = island("SessionRefresh", SessionRefreshIsland);

/** The islands bundle, only on pages that have islands: other pages ship no JavaScript. */
function IslandScripts() {
  const { islands } = usePage();
  return islands.size ? <script type="module" src={assetUrl("islands.js")} /> : null;
}

export default function App({ children, title, url, user }: AppShellProps) {
  const page = usePage();
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="dark light" />
        {page.meta?.some((m) => m.name === "description") ? null : (
          <meta
            name="description"
            content="Track the movies you watched and get recommendations."
          />
        )}
        {page.meta?.map((m, i) => <meta key={i} {...m} />)}
        <title>{title ? `${title} · Movies` : "Movies"}</title>
        <link rel="stylesheet" href={assetUrl("styles.css")} />
        <link rel="icon" href={assetUrl("favicon.svg")} type="image/svg+xml" />
        {page.auth.url ? <meta name="supabase-url" content={page.auth.url} /> : null}
        {page.auth.anonKey ? <meta name="supabase-anon-key" content={page.auth.anonKey} /> : null}
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to content</a>
        <SiteHeader url={url} user={user} />
        <main id="main" class="wrap" tabIndex={-1}>{children}</main>
        <SiteFooter />
        {page.staleSession ? <SessionRefresh /> : null}
        <IslandScripts />
      </body>
    </html>
  );
}
