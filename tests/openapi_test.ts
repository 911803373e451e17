import assert from "node:assert/strict";
import type { z } from "zod";
import { testApp } from "./helpers/app.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { signupBodySchema } from "../lib/auth/signup.ts";
import { importBodySchema } from "../lib/import/body.ts";
import { parseCatalogId, writePayloadSchema } from "../lib/lists/write_payload.ts";
import { watchedPostSchema } from "../lib/lists/watched_payload.ts";
import { buildOpenApiDocument } from "../lib/openapi/document.ts";
import { jsonSchemaOf } from "../lib/openapi/json_schema.ts";
import {
  movieCardSchema,
  movieListSchema,
  myListWriteSchema,
  problemSchema,
  quotaStatusSchema,
  watchedWriteSchema,
} from "../lib/openapi/schemas.ts";

// deno-lint-ignore no-explicit-any
type Doc = any;

// The route table of interface.md's Endpoints summary, with OpenAPI's {id} for :id.
const INTERFACE_ROUTES: [string, string[], "bearer" | "admin" | "none"][] = [
  ["/api/recommend", ["get"], "bearer"],
  ["/api/recommend/quota", ["get"], "bearer"],
  ["/api/auth/signup", ["post"], "none"],
  ["/api/movies/search", ["get"], "none"],
  ["/api/movies/popular", ["get"], "none"],
  ["/api/movies/{id}", ["get"], "none"],
  ["/api/watched", ["get", "post", "delete"], "bearer"],
  ["/api/mylist", ["get", "post", "delete"], "bearer"],
  ["/api/admin/catalog-import", ["post"], "admin"],
];

const SECURITY = { bearer: [{ bearerAuth: [] }], admin: [{ adminToken: [] }], none: undefined };

async function fetchDocument(): Promise<Doc> {
  await using t = await testApp();
  const res = await t.request("/api/openapi.json");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  return JSON.parse(await res.text());
}

function write(u: TestUser, method: string, body: unknown): RequestInit {
  return {
    method,
    headers: { ...u.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  };
}

/** Parses a response with the zod schema its documented component was built from. */
async function conforms<S extends z.ZodType>(
  res: Response,
  status: number,
  schema: S,
): Promise<z.output<S>> {
  assert.equal(res.status, status);
  const body = await res.json();
  const parsed = schema.safeParse(body);
  assert.ok(parsed.success, `${JSON.stringify(body)}: ${parsed.error?.message}`);
  return parsed.data!;
}

Deno.test("GET /api/openapi.json is OpenAPI 3.1 JSON listing every /api route of interface.md with its methods and auth", async () => {
  const doc = await fetchDocument();
  assert.match(doc.openapi, /^3\.1\.\d+$/);
  for (const [path, methods, auth] of INTERFACE_ROUTES) {
    assert.ok(doc.paths[path], `${path} is documented`);
    for (const method of methods) {
      const op = doc.paths[path][method];
      assert.ok(op, `${method.toUpperCase()} ${path} is documented`);
      assert.deepEqual(op.security, SECURITY[auth], `${method} ${path} security`);
      if (auth === "bearer") assert.ok(op.responses["401"], `${method} ${path} documents 401`);
    }
  }
  assert.deepEqual(doc.components.securitySchemes.adminToken, {
    type: "apiKey",
    in: "header",
    name: "x-admin-token",
    description: "The ADMIN_TOKEN of the server.",
  });
  assert.equal(doc.components.securitySchemes.bearerAuth.scheme, "bearer");
});

Deno.test("every documented error is application/problem+json and every $ref resolves", async () => {
  const doc = await fetchDocument();
  for (const [path, item] of Object.entries<Doc>(doc.paths)) {
    for (const [method, op] of Object.entries<Doc>(item)) {
      for (const [status, response] of Object.entries<Doc>(op.responses)) {
        if (Number(status) < 400) continue;
        assert.deepEqual(
          Object.keys(response.content),
          ["application/problem+json"],
          `${method} ${path} ${status}`,
        );
      }
    }
  }
  const refs = JSON.stringify(doc).matchAll(/"\$ref":"#\/([^"]+)"/g);
  for (const [, pointer] of refs) {
    const target = pointer.split("/").reduce((node: Doc, key) => node?.[key], doc);
    assert.ok(target, `#/${pointer} resolves`);
  }
  // The interface's error table, status by status.
  const statuses = (path: string, method: string) =>
    Object.keys(doc.paths[path][method].responses).filter((s) => Number(s) >= 400);
  assert.deepEqual(statuses("/api/movies/search", "get"), ["400", "429", "500", "502"]);
  assert.deepEqual(statuses("/api/recommend", "get"), [
    "400",
    "401",
    "409",
    "429",
    "500",
    "502",
    "503",
  ]);
  for (const s of ["400", "404", "500"]) assert.ok(statuses("/api/movies/{id}", "get").includes(s));
  assert.ok(statuses("/api/mylist", "post").includes("409"));
  assert.ok(!statuses("/api/mylist", "delete").includes("409"));
});

Deno.test("the documented write payload takes the flat and nested forms with catalogId an integer 1..2147483647", async () => {
  const doc = await fetchDocument();
  for (const path of ["/api/watched", "/api/mylist"]) {
    for (const method of ["post", "delete"]) {
      const schema = doc.paths[path][method].requestBody.content["application/json"].schema;
      const [flat, nested] = schema.anyOf;
      // POST /api/watched also takes the history fields beside the payload (contract 11).
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
  ]);
  assert.deepEqual(params("/api/movies/popular"), ["query:page:false"]);
  assert.deepEqual(params("/api/movies/{id}"), ["path:id:true"]);
  assert.deepEqual(params("/api/recommend"), ["query:refresh:false", "query:getNew:false"]);
  assert.equal(doc.paths["/api/movies/search"].get.parameters[0].schema.maxLength, 200);
});

Deno.test("real list responses and problem bodies of the app match their documented schemas", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  await t.store.query(
    `insert into public.movies (catalog_id, title, original_title, year, poster_path, genres, runtime)
     values (603, 'The Matrix', 'The Matrix', 1999, '/matrix.jpg', '{Action,Science Fiction}', 136)`,
  );
  const doc = buildOpenApiDocument() as Doc;
  const documented = (path: string, method: string, status: number) =>
    assert.ok(doc.paths[path][method].responses[String(status)], `${method} ${path} ${status}`);

  await conforms(
    await t.request("/api/watched", write(u, "POST", { catalogId: 603 })),
    200,
    watchedWriteSchema,
  );
  // Not in the movies store: the fallback card must match the schema too.
  await conforms(
    await t.request("/api/watched", write(u, "POST", { movie: { catalogId: 424242 } })),
    200,
    watchedWriteSchema,
  );
  const list = await conforms(
    await t.request("/api/watched", { headers: u.headers }),
    200,
    movieListSchema,
  );
  assert.deepEqual(list.movies, [
    { catalogId: 424242, title: "", year: 0, posterPath: "", genres: [], runtime: 0 },
    {
      catalogId: 603,
      title: "The Matrix",
      year: 1999,
      posterPath: "/matrix.jpg",
      genres: ["Action", "Science Fiction"],
      runtime: 136,
    },
  ]);
  for (const card of list.movies) movieCardSchema.parse(card);
  await conforms(
    await t.request("/api/mylist", write(u, "POST", { catalogId: 77 })),
    200,
    myListWriteSchema,
  );
  await conforms(await t.request("/api/mylist", { headers: u.headers }), 200, movieListSchema);
  await conforms(
    await t.request("/api/recommend/quota", { headers: u.headers }),
    200,
    quotaStatusSchema,
  );

  const problems: [string, string, RequestInit, number, string][] = [
    ["/api/watched", "post", write(u, "POST", { catalogId: 0 }), 400, "invalid_catalog_id"],
    ["/api/watched", "post", write(u, "POST", { id: 1 }), 400, "invalid_body"],
    ["/api/watched", "get", {}, 401, "unauthorized"],
    ["/api/mylist", "post", write(u, "POST", { catalogId: 603 }), 409, "already_watched"],
    ["/api/movies/{id}", "get", {}, 400, "invalid_catalog_id"],
  ];
  for (const [path, method, init, status, code] of problems) {
    const url = path === "/api/movies/{id}" ? "/api/movies/0" : path;
    const res = await t.request(url, init);
    assert.match(res.headers.get("content-type") ?? "", /^application\/problem\+json/);
    const body = await conforms(res, status, problemSchema);
    assert.equal(body.code, code);
    assert.equal(body.status, status);
    documented(path, method, status);
  }
});
