/**
 * `/api/docs`: the reference of GET /api/openapi.json, drawn on the server from the same
 * document (lib/openapi/reference.ts), with a form per operation that the ApiConsole island
 * sends with the signed-in visitor's token. It replaced Swagger UI, which took 3.5-5.5 s of
 * main-thread time to draw here (BENCHMARKS.md).
 */
import { ApiOperation } from "@/components/ApiOperation.tsx";
import { Title } from "@/components/Title.tsx";
import type { PageProps } from "@/lib/http/app_env.ts";
import { buildOpenApiDocument } from "@/lib/openapi/document.ts";
import { type ReferenceGroup, referenceGroups } from "@/lib/openapi/reference.ts";
import { ApiConsole } from "@/islands.gen.ts";

let groups: ReferenceGroup[] | undefined;
let info: { title: string; description: string } | undefined;

// Built once per process, as the document is: it is fixed for the life of the process.
function reference() {
  if (!groups || !info) {
    const doc = buildOpenApiDocument();
    groups = referenceGroups(doc);
    info = doc.info as { title: string; description: string };
  }
  return { groups, info };
}

export default function ApiDocs(_props: PageProps) {
  const { groups, info } = reference();
  return (
    <>
      <Title>API reference</Title>
      <h1>API reference</h1>
      <p>
        Every route of <code>/api</code>, from <a href="/api/openapi.json">the OpenAPI document</a>.
        {" "}
        Signed in, “Try it” calls this server with your access token; otherwise paste a Bearer token
        below.
      </p>
      <noscript>
        <p class="notice">Sending a request from this page needs JavaScript.</p>
      </noscript>
      <ApiConsole />
      <div class="api-reference">
        <h2>{info.title}</h2>
        <p>{info.description}</p>
        <nav aria-label="API sections">
          <ul class="api-tags">
            {groups.map((g) => (
              <li key={g.tag}>
                <a href={`#tag-${g.tag}`}>{g.tag}</a>
              </li>
            ))}
          </ul>
        </nav>
        {groups.map((g) => (
          <section key={g.tag} aria-labelledby={`tag-${g.tag}`}>
            <h3 id={`tag-${g.tag}`}>{g.tag}</h3>
            {g.operations.map((op) => <ApiOperation key={op.id} op={op} />)}
          </section>
        ))}
      </div>
    </>
  );
}
