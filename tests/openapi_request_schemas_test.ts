/**
 * The documented request bodies are the schemas the routes parse with, the write payload exactly.
 */
import assert from "node:assert/strict";
import { type Doc, fetchDocument } from "./helpers/openapi.ts";
import { signupBodySchema } from "../lib/identity/auth/signup.ts";
import { importBodySchema } from "../lib/catalog/import/body.ts";
import { parseCatalogId, writePayloadSchema } from "../lib/library/entries/write_payload.ts";
import { watchedPostSchema } from "../lib/library/entries/watched_payload.ts";
import { jsonSchemaOf } from "../lib/openapi/json_schema.ts";

Deno.test("the documented write payload takes the flat and nested forms with catalogId an integer 1..2147483647", async () => {
  const doc = await fetchDocument();
  for (const path of ["/api/watched", "/api/mylist"]) {
    for (const method of ["post", "delete"]) {
      const schema = doc.paths[path][method].requestBody.content["application/json"].schema;
      const [flat, nested] = schema.anyOf;
      // POST /api/watched also takes the history fields beside the payload (docs/entries.md).
      const documented = path === "/api/watched" && method === "post"
        ? watchedPostSchema
        : writePayloadSchema;
      assert.deepEqual(schema, jsonSchemaOf(documented, "input"), `${method} ${path}`);
      const bounds = { type: "integer", minimum: 1, maximum: 2147483647 };
      assert.deepEqual(flat.properties.catalogId, bounds);
      assert.deepEqual(flat.required, ["catalogId"]);
      assert.deepEqual(nested.properties.movie.properties.catalogId, bounds);
      assert.deepEqual(nested.required, ["movie"]);
    }
  }
  assert.ok(writePayloadSchema.safeParse({ catalogId: 1 }).success);
  assert.ok(writePayloadSchema.safeParse({ movie: { catalogId: 2147483647 } }).success);
});

Deno.test("the write payload parser accepts exactly the bodies the documented schema accepts", () => {
  const bodies: unknown[] = [
    { catalogId: 1 },
    { catalogId: 2147483647 },
    { catalogId: 2147483648 },
    { catalogId: 0 },
    { catalogId: -3 },
    { catalogId: 1.5 },
    { catalogId: "7" },
    { catalogId: null },
    { catalogId: 5, extra: true },
    { movie: { catalogId: 9 } },
    { movie: { catalogId: 9, title: "x" }, other: 1 },
    { movie: { catalogId: "9" } },
    { movie: { catalogId: 0 } },
    { movie: {} },
    { movie: null },
    { catalogId: 5, movie: { catalogId: "bad" } },
    { catalogId: "bad", movie: { catalogId: 5 } },
    { catalogId: null, movie: { catalogId: 5 } },
    {},
    [],
    [{ catalogId: 1 }],
    null,
    7,
    "x",
  ];
  for (const body of bodies) {
    const documented = writePayloadSchema.safeParse(body);
    let parsed: number | undefined;
    try {
      parsed = parseCatalogId(body);
    } catch {
      parsed = undefined;
    }
    assert.equal(parsed !== undefined, documented.success, JSON.stringify(body));
    if (documented.success) {
      const data = documented.data as { catalogId?: number; movie?: { catalogId: number } };
      assert.equal(parsed, data.catalogId ?? data.movie?.catalogId, JSON.stringify(body));
    }
  }
});

Deno.test("the document's request schemas are the ones the routes parse with", async () => {
  const doc = await fetchDocument();
  const body = (path: string) => doc.paths[path].post.requestBody.content["application/json"];
  assert.deepEqual(body("/api/auth/signup").schema, jsonSchemaOf(signupBodySchema, "input"));
  assert.deepEqual(body("/api/admin/catalog-import").schema, {
    type: "object",
    properties: { pages: { type: "integer", minimum: 1, maximum: 25 } },
    additionalProperties: false,
  });
  assert.deepEqual(
    body("/api/admin/catalog-import").schema,
    jsonSchemaOf(importBodySchema, "input"),
  );
  const params = (path: string) =>
    doc.paths[path].get.parameters.map((p: Doc) => `${p.in}:${p.name}:${p.required}`);
  assert.deepEqual(params("/api/movies/search"), [
    "query:q:true",
    "query:year:false",
    "query:page:false",
    "query:include:false",
  ]);
  assert.deepEqual(params("/api/movies/popular"), ["query:page:false"]);
  assert.deepEqual(params("/api/movies/{id}"), ["path:id:true"]);
  assert.deepEqual(params("/api/recommend"), ["query:refresh:false", "query:getNew:false"]);
  assert.equal(doc.paths["/api/movies/search"].get.parameters[0].schema.maxLength, 200);
});
