/**
 * One operation of the API reference (/api/docs), drawn on the server: what it takes and
 * answers, and a form to try it that the ApiConsole island sends (docs/openapi.md).
 */
import type { ReferenceOperation } from "../lib/openapi/reference.ts";

// Spelled out so the stylesheet check finds each class a component names.
const METHOD_CLASS: Record<string, string> = {
  GET: "api-method-get",
  POST: "api-method-post",
  PUT: "api-method-put",
  PATCH: "api-method-patch",
  DELETE: "api-method-delete",
};

/** An operation as a disclosure: the summary line, then its details and its form. */
export function ApiOperation({ op }: { op: ReferenceOperation }) {
  const inputs = op.parameters.filter((p) => p.in === "path" || p.in === "query");
  const tryable = !op.body || op.body.contentType === "application/json" ||
    op.body.contentType.startsWith("text/");
  return (
    <details class="api-op" id={op.id}>
      <summary>
        <span class={`api-method ${METHOD_CLASS[op.method] ?? ""}`}>{op.method}</span>{" "}
        <code class="api-path">{op.path}</code> <span class="api-summary">{op.summary}</span>
      </summary>
      <div class="api-op-body">
        {op.description ? <p>{op.description}</p> : null}
        <p class="hint">
          {op.credentials.includes("bearer")
            ? "Needs a Bearer token (an access token or a personal access token)."
            : op.credentials.includes("admin")
            ? "Needs the x-admin-token header."
            : "No credentials needed."}
        </p>
        {op.parameters.length
          ? (
            <table class="api-table">
              <caption>Parameters</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">In</th>
                  <th scope="col">Type</th>
                  <th scope="col">Description</th>
                </tr>
              </thead>
              <tbody>
                {op.parameters.map((p) => (
                  <tr key={`${p.in}-${p.name}`}>
                    <td>
                      <code>{p.name}</code>
                      {p.required ? " (required)" : ""}
                    </td>
                    <td>{p.in}</td>
                    <td>{p.type}</td>
                    <td>{p.description}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
          : null}
        {op.body
          ? (
            <details class="api-schema">
              <summary>
                Request body ({op.body.contentType}
                {op.body.required ? ", required" : ""}): schema
              </summary>
              {op.body.description ? <p>{op.body.description}</p> : null}
              <pre>{op.body.schema}</pre>
            </details>
          )
          : null}
        <h4>Responses</h4>
        <ul class="api-responses">
          {op.responses.map((r) => (
            <li key={r.status}>
              <code>{r.status}</code> {r.description}
            </li>
          ))}
        </ul>
        {tryable
          ? (
            <form
              class="api-try"
              method="post"
              data-method={op.method}
              data-path={op.path}
              data-admin={op.credentials.includes("admin") ? "true" : undefined}
              data-content-type={op.body?.contentType}
            >
              <h4>Try it</h4>
              {inputs.map((p) => (
                <div class="field" key={`${p.in}-${p.name}`}>
                  <label for={`${op.id}-${p.in}-${p.name}`}>
                    {p.name} ({p.in}
                    {p.required ? ", required" : ""})
                  </label>
                  <input
                    id={`${op.id}-${p.in}-${p.name}`}
                    name={`${p.in}:${p.name}`}
                    required={p.required}
                    autocomplete="off"
                  />
                </div>
              ))}
              {op.body
                ? (
                  <div class="field">
                    <label for={`${op.id}-body`}>Body ({op.body.contentType})</label>
                    <textarea id={`${op.id}-body`} name="body" rows={6} spellcheck={false}>
                      {op.body.example}
                    </textarea>
                  </div>
                )
                : null}
              <button type="submit" class="button button-small">Send {op.method}</button>
              <pre class="api-result" tabIndex={-1} aria-live="polite" hidden />
            </form>
          )
          : <p class="hint">Send this upload with curl (see docs/api.md).</p>}
      </div>
    </details>
  );
}
