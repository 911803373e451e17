/** The contract checker itself: it passes a conforming answer and names each kind of mismatch. */
import assert from "node:assert/strict";
import { buildOpenApiDocument } from "../lib/openapi/document.ts";
import type { Exchange } from "./helpers/contract_recorder.ts";
import { contractValidator } from "./helpers/contract_validator.ts";

const validator = contractValidator(buildOpenApiDocument());
const json = { "content-type": "application/json" };
const problemType = { "content-type": "application/problem+json" };
const problem = JSON.stringify({
  type: "about:blank",
  title: "Unauthorized",
  status: 401,
  detail: "A valid bearer token is required.",
  code: "unauthorized",
});

function exchange(part: Partial<Exchange>): Exchange {
  return { method: "GET", path: "/api/watched", status: 200, headers: json, body: "", ...part };
}

Deno.test("the contract checker passes documented answers", () => {
  const list = JSON.stringify({ success: true, movies: [] });
  assert.deepEqual(validator.check(exchange({ body: list })), []);
  assert.deepEqual(
    validator.check(exchange({ status: 401, headers: problemType, body: problem })),
    [],
  );
  assert.deepEqual(
    validator.check(exchange({ path: "/api/nothing-here", status: 404, headers: problemType })),
    [],
  );
  assert.deepEqual(
    validator.check(exchange({
      method: "PUT",
      status: 405,
      headers: { ...problemType, allow: "GET, POST, DELETE" },
    })),
    [],
  );
});

Deno.test("the contract checker names each kind of mismatch", () => {
  const cases: [Partial<Exchange>, RegExp][] = [
    [{ path: "/api/unknown", status: 200, body: "{}" }, /path is not documented/],
    [{ status: 418, headers: problemType, body: problem }, /status not documented/],
    [{ body: JSON.stringify({ success: true, movies: [], extra: 1 }) }, /does not match/],
    [{ body: JSON.stringify({ success: true }) }, /does not match/],
    [{ headers: { "content-type": "text/html" }, body: "<p>" }, /content type/],
    [{ method: "PUT", status: 405, headers: problemType }, /Allow/],
    [{ method: "PUT", status: 200, body: "{}" }, /method is not documented/],
    [{
      path: "/api/movies/search",
      body: JSON.stringify({ page: 1, totalPages: 1, totalResults: 0, results: [] }),
    }, /header X-RateLimit-Limit is missing/],
  ];
  for (const [part, expected] of cases) {
    const found = validator.check(exchange(part));
    assert.ok(found.some((text) => expected.test(text)), `${expected}: ${found.join("; ")}`);
  }
});
