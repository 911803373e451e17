/** The one check of a problem answer (docs/api.md) the API tests share. */
import assert from "node:assert/strict";

/** Asserts a problem answer with `status` and `code`, and returns its body. */
export async function problem(res: Response, status: number, code: string, label = code) {
  assert.equal(res.status, status, label);
  assert.match(res.headers.get("content-type") ?? "", /^application\/problem\+json/, label);
  const body = await res.json();
  assert.equal(body.code, code, label);
  return body;
}
