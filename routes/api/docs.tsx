/** `/api/docs`: the interactive reference of GET /api/openapi.json (Swagger UI, served locally). */
import { Title } from "../../components/Title.tsx";
import type { PageProps } from "../../lib/http/app_env.ts";
import { assetUrl } from "../../lib/http/static.ts";
import { ApiReference } from "../../islands.gen.ts";

export default function ApiDocs(_props: PageProps) {
  return (
    <>
      <Title>API reference</Title>
      <h1>API reference</h1>
      <p>
        Every route of <code>/api</code>, from <a href="/api/openapi.json">the OpenAPI document</a>.
        {" "}
        Signed in, “Try it out” calls this server with your access token; otherwise use “Authorize”
        with a Bearer token.
      </p>
      <link rel="stylesheet" href={assetUrl("api-docs/swagger-ui.css")} />
      {/* Fetched while the page's own script loads, not after it has run. */}
      <link rel="preload" as="script" href={assetUrl("api-docs/swagger-ui-bundle.js")} />
      <ApiReference
        bundleUrl={assetUrl("api-docs/swagger-ui-bundle.js")}
        specUrl="/api/openapi.json"
      />
    </>
  );
}
