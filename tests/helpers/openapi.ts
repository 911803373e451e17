/** The served OpenAPI document, for the tests that compare it with the routes. */
import assert from "node:assert/strict";
import { testApp } from "./app.ts";

/** An OpenAPI document walked by path in tests (its shape is what the tests assert). */
// deno-lint-ignore no-explicit-any
export type Doc = any;

/** GET /api/openapi.json from a fresh app: 200, JSON, parsed. */
export async function fetchDocument(): Promise<Doc> {
  await using t = await testApp();
  const res = await t.request("/api/openapi.json");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  return JSON.parse(await res.text());
}
