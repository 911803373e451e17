import assert from "node:assert/strict";
import { buildOpenApiDocument } from "../lib/openapi/document.ts";

// deno-lint-ignore no-explicit-any
type Doc = any;

Deno.test("every operation taking a body documents 408 body_timeout, every one reaching the store 503 store_unavailable (with Retry-After where it is the only 503)", () => {
  const doc: Doc = buildOpenApiDocument();
  assert.ok(doc.components.headers["Retry-After"]);
  for (const [path, item] of Object.entries<Doc>(doc.paths)) {
    for (const [method, op] of Object.entries<Doc>(item)) {
      const where = `${method} ${path}`;
      if (op.requestBody) assert.match(op.responses[408]?.description ?? "", /body_timeout/, where);
      if (["/api/movies/search", "/api/openapi.json"].includes(path)) {
        assert.equal(op.responses[503], undefined, where);
        continue;
      }
      const unavailable = op.responses[503];
      assert.match(
        unavailable.description,
        path === "/api/health" ? /not_ready/ : /store_unavailable/,
      );
      // Retry-After as required only where store_unavailable is the only 503.
      if (!/ or /i.test(unavailable.description) && path !== "/api/health") {
        assert.deepEqual(unavailable.headers, {
          "Retry-After": { $ref: "#/components/headers/Retry-After" },
        }, where);
      } else {
        // Where another 503 comes without it, Retry-After may only be documented as optional.
        const header = unavailable.headers?.["Retry-After"];
        assert.ok(header === undefined || header.required === false, where);
      }
    }
  }
});
