import assert from "node:assert/strict";
import type { z } from "zod";
import { buildOpenApiDocument } from "../lib/openapi/document.ts";
import { responseComponents } from "../lib/openapi/schemas.ts";
import { letterboxdZip } from "./helpers/history_files.ts";
import { historyWorld } from "./helpers/history_import_world.ts";
import { createUser } from "./helpers/users.ts";

// deno-lint-ignore no-explicit-any
type Doc = any;

/**
 * Checks a response against the document: its status is listed for the operation, its
 * content type is one the status lists, and a JSON body parses with the component's schema.
 */
async function assertDocumented(doc: Doc, method: string, path: string, res: Response) {
  const where = `${method.toUpperCase()} ${path} ${res.status}`;
  const documented = doc.paths[path]?.[method]?.responses?.[String(res.status)];
  assert.ok(documented, `${where} is not in the document`);
  const type = (res.headers.get("content-type") ?? "").split(";")[0].trim();
  const content = documented.content?.[type];
  assert.ok(content, `${where}: ${type} is not documented`);
  const name = String(content.schema.$ref ?? "").split("/")
    .pop() as keyof typeof responseComponents;
  if (!name) {
    await res.body?.cancel();
    return;
  }
  const schema: z.ZodType = responseComponents[name];
  const body = await res.json();
  const parsed = schema.safeParse(body);
  assert.ok(parsed.success, `${where}: ${JSON.stringify(body)}: ${parsed.error?.message}`);
}

Deno.test("every answer of the import and export routes is documented, with its body's schema", async () => {
  const doc = buildOpenApiDocument();
  await using w = await historyWorld();
  const h = w.user.headers;
  const run = await w.importFile(letterboxdZip());
  const raw = (body: BodyInit) => ({ method: "POST", headers: h, body });
  const cases: [string, string, string, RequestInit?][] = [
    ["get", "/api/import", "/api/import", { headers: h }],
    ["get", "/api/import", "/api/import"],
    ["post", "/api/import", "/api/import", raw("hello\n")],
    ["post", "/api/import", "/api/import", raw(new Uint8Array(20 * 1024 * 1024 + 1))],
    ["post", "/api/import", "/api/import", { method: "POST", body: "x" }],
    ["get", "/api/import/{id}", `/api/import/${run.id}`, { headers: h }],
    ["get", "/api/import/{id}", `/api/import/${crypto.randomUUID()}`, { headers: h }],
    ["get", "/api/import/{id}", `/api/import/${run.id}`],
    ["get", "/api/export", "/api/export", { headers: h }],
    ["get", "/api/export", "/api/export?format=csv&list=watched", { headers: h }],
    ["get", "/api/export", "/api/export?format=csv", { headers: h }],
    ["get", "/api/export", "/api/export"],
  ];
  const seen = new Set<string>();
  for (const [method, path, url, init] of cases) {
    const res = await w.t.request(url, init);
    seen.add(`${method} ${path} ${res.status}`);
    await assertDocumented(doc, method, path, res);
  }
  // A run in progress: 202 and the 409 of a second one.
  const gate = Promise.withResolvers<void>();
  w.fake.override = async (req) => {
    if (req.path === "/search/movie") await gate.promise;
    return undefined;
  };
  const other = await createUser(w.t.deps);
  for (let i = 0; i < 2; i++) {
    const res = await w.t.request("/api/import", {
      method: "POST",
      headers: other.headers,
      body: "Date,Name,Year,Letterboxd URI\n2024-01-01,Heat,1995,x\n",
    });
    seen.add(`post /api/import ${res.status}`);
    await assertDocumented(doc, "post", "/api/import", res);
  }
  const running = await w.t.request("/api/import", { headers: other.headers });
  await assertDocumented(doc, "get", "/api/import", running);
  gate.resolve();
  for (
    const expected of [
      "post /api/import 202",
      "post /api/import 400",
      "post /api/import 401",
      "post /api/import 409",
      "post /api/import 413",
      "get /api/import/{id} 200",
      "get /api/import/{id} 404",
      "get /api/export 200",
      "get /api/export 400",
    ]
  ) assert.ok(seen.has(expected), `${expected} was not exercised`);
});
