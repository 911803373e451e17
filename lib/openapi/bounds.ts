/**
 * The responses the service's bounds add to operations (docs/faults.md): a body that does
 * not arrive within 10 s is 408 `body_timeout`, a body the client abandons is logged as 499, and
 * a store that does not answer within 5 s is 503 `store_unavailable` with Retry-After. Added
 * here, once, to every operation they can reach, instead of by hand to each.
 */
import { problem, type ResponseObject } from "./responses.ts";

type Operation = { requestBody?: unknown; responses: Record<string, ResponseObject> };

const STORE_UNAVAILABLE =
  "the database did not answer within 5 s (`store_unavailable`; retry after Retry-After)";

/** The Retry-After header of a 503 (the component in responses.ts). */
const retryAfter = { "Retry-After": { $ref: "#/components/headers/Retry-After" } };

const bodyTimeout = problem("The request body did not arrive within 10 s (`body_timeout`).");
const clientClosed = problem(
  "The client closed the connection before its body arrived (`client_closed_request`); " +
    "logged at info, never seen by a client.",
);

// Routes that never answer store_unavailable: search goes straight to the external database,
// the document is built from code, and health says not_ready (documented in ./paths.ts).
const STORELESS = new Set(["/api/movies/search", "/api/openapi.json", "/api/health"]);

// Retry-After is documented (so required) only where every 503 of the operation carries it:
// joined to another 503 (ai_unavailable, identity_unavailable, ...) it is named in the text.
function with503(existing: ResponseObject | undefined): ResponseObject {
  if (!existing) {
    return { ...problem(`The ${STORE_UNAVAILABLE.replace(/^the /, "")}.`), headers: retryAfter };
  }
  const description = `${
    String(existing.description).replace(/\.$/, "")
  }; or ${STORE_UNAVAILABLE}.`;
  return { ...existing, description };
}

/** `paths` with the 408/499 of a body and the 503 of the store on the operations they reach. */
export function withBounds(paths: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(paths as Record<string, Record<string, Operation>>)) {
    const ops: Record<string, Operation> = {};
    for (const [method, op] of Object.entries(item)) {
      const responses = { ...op.responses };
      if (op.requestBody) Object.assign(responses, { 408: bodyTimeout, 499: clientClosed });
      if (!STORELESS.has(path)) responses[503] = with503(responses[503]);
      ops[method] = { ...op, responses: sortByStatus(responses) };
    }
    out[path] = ops;
  }
  return out;
}

function sortByStatus(responses: Record<string, ResponseObject>): Record<string, ResponseObject> {
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}
