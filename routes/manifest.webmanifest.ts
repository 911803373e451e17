/** GET /manifest.webmanifest: the web app manifest that makes the site installable. */
import type { Handlers } from "../lib/http/app_env.ts";
import { assetUrl } from "../lib/http/static.ts";
import { webAppManifest } from "../lib/web/pwa/manifest.ts";

export const handler: Handlers = {
  GET() {
    return new Response(JSON.stringify(webAppManifest(assetUrl)), {
      headers: {
        "content-type": "application/manifest+json; charset=utf-8",
        // Its icon URLs carry the build's versions, so browsers must ask again after a build.
        "cache-control": "no-cache",
      },
    });
  },
};
