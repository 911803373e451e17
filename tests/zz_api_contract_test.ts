/**
 * The contract test: every /api answer the whole suite produced (recorded by
 * tests/helpers/contract_recorder.ts around each test app's fetch) is held to the OpenAPI
 * document, and every /api route of the manifest must have been seen. Deno runs test files
 * in name order in one process, so this file's name makes it run last and see every record.
 */
import assert from "node:assert/strict";
import { allowedMethods } from "../app.ts";
import { buildOpenApiDocument } from "../lib/openapi/document.ts";
import { manifest } from "../routes.gen.ts";
import { readExchanges, recordFile } from "./helpers/contract_recorder.ts";
import { contractValidator } from "./helpers/contract_validator.ts";

const exchanges = readExchanges();
const validator = contractValidator(buildOpenApiDocument());

Deno.test("every /api answer the suite received matches the OpenAPI document", () => {
  assert.ok(
    exchanges.length > 0,
    "no recorded exchanges: this test checks what the other test files recorded, so run it " +
      "with the whole suite (deno task test)",
  );
  const mismatches = new Map<string, number>();
  for (const exchange of exchanges) {
    for (const mismatch of validator.check(exchange)) {
      mismatches.set(mismatch, (mismatches.get(mismatch) ?? 0) + 1);
    }
  }
  const list = [...mismatches].map(([text, n]) => (n > 1 ? `${text} (x${n})` : text));
  assert.deepEqual(list, [], `${list.length} mismatches in ${exchanges.length} answers`);
});

Deno.test("the suite exercised every /api route and method of the manifest", () => {
  const seen = new Set(
    exchanges.map((e) =>
      `${e.method === "HEAD" ? "GET" : e.method} ${validator.templateOf(e.path)}`
    ),
  );
  const missing: string[] = [];
  for (const { pattern, module } of manifest.routes) {
    if (!pattern.startsWith("/api/") || !module.handler) continue;
    const template = pattern.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
    for (const method of allowedMethods(module)) {
      if (!seen.has(`${method} ${template}`)) missing.push(`${method} ${pattern}`);
    }
  }
  assert.deepEqual(missing, [], `routes no test called: ${missing.join(", ")}`);
});

Deno.test("the recorded answers are cleared for the next run", async () => {
  await Deno.remove(recordFile()).catch(() => {});
  assert.deepEqual(readExchanges(), []);
});
