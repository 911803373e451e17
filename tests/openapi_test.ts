/**
 * The OpenAPI document at /api/openapi.json: the service's first routes (docs/openapi.md) with their auth, errors,
 * $refs.
 */
import assert from "node:assert/strict";
import { type Doc, fetchDocument } from "./helpers/openapi.ts";

// The service's first routes (docs/openapi.md, The first routes), with OpenAPI's {id} for :id.
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

// A bearer route takes the session's JWT or a personal access token (docs/connections.md).
const SECURITY = {
  bearer: [{ bearerAuth: [] }, { personalAccessToken: [] }],
  admin: [{ adminToken: [] }],
  none: undefined,
};

Deno.test("GET /api/openapi.json is OpenAPI 3.1 JSON listing the first /api routes with their methods and auth", async () => {
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
  assert.equal(doc.components.securitySchemes.personalAccessToken.scheme, "bearer");
  // Where the account itself is managed, only a session will do.
  for (
    const [path, method] of [["/api/tokens", "get"], ["/api/tokens", "post"], [
      "/api/account",
      "delete",
    ]]
  ) {
    assert.deepEqual(doc.paths[path][method].security, [{ bearerAuth: [] }], `${method} ${path}`);
    assert.ok(doc.paths[path][method].responses["403"], `${method} ${path} documents 403`);
  }
  // A read token's write is a documented 403.
  assert.match(doc.paths["/api/watched"].post.responses["403"].description, /insufficient_scope/);
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
    "403",
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
