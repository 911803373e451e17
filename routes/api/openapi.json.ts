/** GET /api/openapi.json: the OpenAPI 3.1 document of /api, built once from the zod schemas. */
import type { Handlers } from "@/lib/http/app_env.ts";
import { openApiJson } from "@/lib/openapi/document.ts";

export const handler: Handlers = {
  GET() {
    return new Response(openApiJson(), {
      headers: {
        "content-type": "application/json; charset=utf-8",
        // Fixed per deployment; a short public cache spares clients refetching it.
        "cache-control": "public, max-age=300",
      },
    });
  },
};
