/**
 * The OpenAPI document itself is valid OpenAPI 3.1: checked against the OpenAPI Initiative's
 * published 3.1 schema by @seriousme/openapi-schema-validator, and each of its JSON Schemas
 * against the draft 2020-12 meta-schema (the 3.1 schema leaves Schema Objects to the dialect).
 */
import assert from "node:assert/strict";
import { Validator } from "@seriousme/openapi-schema-validator";
import { buildOpenApiDocument } from "../lib/openapi/document.ts";
import { newAjv } from "./helpers/ajv.ts";
import { testApp } from "./helpers/app.ts";

type Doc = ReturnType<typeof buildOpenApiDocument>;

async function problemsOf(document: Doc): Promise<string[]> {
  const validator = new Validator();
  const result = await validator.validate(document);
  const problems = result.valid ? [] : [JSON.stringify(result.errors).slice(0, 2000)];
  if (validator.version !== "3.1") problems.push(`read as OpenAPI ${validator.version}`);
  const ajv = newAjv();
  const schemas = (document.components as { schemas: Record<string, object> }).schemas;
  for (const [name, schema] of Object.entries(schemas)) {
    if (!ajv.validateSchema(schema)) problems.push(`${name}: ${ajv.errorsText(ajv.errors)}`);
  }
  return problems;
}

Deno.test("GET /api/openapi.json validates against the OpenAPI 3.1 schema", async () => {
  await using t = await testApp();
  const served = await (await t.request("/api/openapi.json")).json();
  assert.deepEqual(served, buildOpenApiDocument());
  assert.deepEqual(await problemsOf(served), []);
});

Deno.test("the OpenAPI 3.1 check refuses a document without a title, a response without a description, or a bad schema", async () => {
  const untitled = buildOpenApiDocument();
  delete (untitled.info as Record<string, unknown>).title;
  assert.equal((await problemsOf(untitled)).length, 1);
  const undescribed = buildOpenApiDocument();
  const paths = undescribed.paths as Record<string, Record<string, { responses: object }>>;
  paths["/api/health"].get.responses = { 200: { content: {} } };
  assert.equal((await problemsOf(undescribed)).length, 1);
  const badSchema = buildOpenApiDocument();
  (badSchema.components as { schemas: Record<string, unknown> }).schemas.Problem = { type: 12 };
  assert.equal((await problemsOf(badSchema)).length, 1);
});
