/** The HTML shell of every page: head, skip link, header with the session, main, footer. */
import { SiteFooter } from "../components/SiteFooter.tsx";
import { SiteHeader } from "../components/SiteHeader.tsx";
import type { AppShellProps } from "../lib/http/app_env.ts";
import { islandAssets } from "../lib/http/island_assets.ts";
import { usePage } from "../lib/http/page_context.ts";
import { assetUrl } from "../lib/http/static.ts";
import { THEME_COLORS } from "../lib/web/pwa/manifest.ts";
import { SessionRefresh } from "../islands.gen.ts";

/** The page's islands (each its own entry), and on every page the worker's registration. */
function IslandScripts() {
  const { scripts, preloads } = islandAssets(usePage().islands);
  return (
    <>
      {preloads.map((href) => <link key={href} rel="modulepreload" href={href} />)}
      {scripts.map((src) => <script key={src} type="module" src={src} />)}
    </>
  );
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
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="apple-touch-icon" href={assetUrl("icons/icon-192.png")} />
        <meta
          name="theme-color"
          media="(prefers-color-scheme: dark)"
          content={THEME_COLORS.dark}
        />
        <meta
          name="theme-color"
          media="(prefers-color-scheme: light)"
          content={THEME_COLORS.light}
        />
        {page.auth.url ? <meta name="supabase-url" content={page.auth.url} /> : null}
        {page.auth.anonKey ? <meta name="supabase-anon-key" content={page.auth.anonKey} /> : null}
      </head>
      <body>
        <a class="skip-link" href="#main">Skip to content</a>
        <SiteHeader url={url} user={user} />
        {/* Before the page: when the session has ended elsewhere, it says so at the top. */}
        {page.staleSession ? <SessionRefresh /> : null}
        {user
          ? (
            <noscript>
              <p class="wrap notice notice-error">
                Reading works without JavaScript, but changing your lists, ratings, imports and
                settings, and signing out, need it.
              </p>
            </noscript>
          )
          : null}
        <main id="main" class="wrap" tabIndex={-1}>{children}</main>
        <SiteFooter />
        <IslandScripts />
      </body>
    </html>
  );
}
