/** GET /sw.js: the service worker, at the root so that its scope is the whole site. */
import type { Handlers } from "../lib/http/app_env.ts";
import { allIslandAssets } from "../lib/http/island_assets.ts";
import { assetUrl } from "../lib/http/static.ts";
import { serviceWorkerScript } from "../lib/web/pwa/service_worker.ts";

export const handler: Handlers = {
  async GET() {
    return new Response(await serviceWorkerScript({ assetUrl, islands: allIslandAssets() }), {
      headers: {
        "content-type": "text/javascript; charset=utf-8",
        // The browser compares the script on every visit; a new build is picked up at once.
        "cache-control": "no-cache",
        "service-worker-allowed": "/",
      },
    });
  },
};
