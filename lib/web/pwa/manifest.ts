/**
 * The web app manifest (/manifest.webmanifest): what a phone needs to install the site as an
 * app — names, icons (a maskable one for launchers that crop), standalone display, theme
 * colours, shortcuts and the share target. docs/website.md, "Installable app", has the rules.
 */
import { ICONS } from "./icons.ts";

/** The theme colours of the dark (default) and light schemes: the stylesheet's --bg. */
export const THEME_COLORS = { dark: "#0f1218", light: "#f6f7f9" } as const;

/** The manifest as JSON-ready data; `assetUrl` gives a static file's versioned URL. */
export function webAppManifest(assetUrl: (file: string) => string): Record<string, unknown> {
  const icons = ICONS.map(({ file, size, purpose }) => ({
    src: assetUrl(`icons/${file}`),
    sizes: `${size}x${size}`,
    type: "image/png",
    purpose,
  }));
  return {
    id: "/",
    name: "Movies: watched, My List, recommendations",
    short_name: "Movies",
    description: "Track the movies you watched and get recommendations.",
    lang: "en",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: THEME_COLORS.dark,
    theme_color: THEME_COLORS.dark,
    icons,
    shortcuts: [
      { name: "Search", url: "/search", description: "Find a movie" },
      { name: "My List", url: "/mylist", description: "What you want to watch" },
      { name: "Recommendations", url: "/recommendations", description: "Picks from your taste" },
    ].map((s) => ({ ...s, icons: [icons[0]] })),
    // Another app's share sheet opens /share with the link or text (lib/web/pwa/movie_link.ts).
    share_target: {
      action: "/share",
      method: "GET",
      enctype: "application/x-www-form-urlencoded",
      params: { title: "title", text: "text", url: "url" },
    },
  };
}
