import assert from "node:assert/strict";
import type { z } from "zod";
import { buildOpenApiDocument } from "../lib/openapi/document.ts";
import {
  currentSetSchema,
  dismissedListSchema,
  successSchema,
} from "../lib/openapi/paths/recommend.ts";
import { watchProvidersSchema } from "../lib/openapi/paths/movies.ts";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";
import { recommendWorld } from "./helpers/recommend_world.ts";

// deno-lint-ignore no-explicit-any
type Doc = any;

async function conforms(res: Response, status: number, schema: z.ZodType) {
  assert.equal(res.status, status);
  const body = await res.json();
  const parsed = schema.safeParse(body);
  assert.ok(parsed.success, `${JSON.stringify(body)}: ${parsed.error?.message}`);
}

Deno.test("the OpenAPI document describes current, dismissed and providers with their methods, auth and errors", () => {
  const doc: Doc = buildOpenApiDocument();
  // A session or a personal access token (docs/connections.md).
  const bearer = [{ bearerAuth: [] }, { personalAccessToken: [] }];
  assert.deepEqual(doc.paths["/api/recommend/current"].get.security, bearer);
  assert.ok(doc.paths["/api/recommend/current"].get.responses["404"]);
  for (const method of ["get", "post", "delete"]) {
    const op = doc.paths["/api/recommend/dismissed"][method];
    assert.deepEqual(op.security, bearer, method);
    assert.ok(op.responses["401"], method);
  }
  assert.match(
    doc.paths["/api/recommend/dismissed"].post.responses["400"].description,
    /too_many_dismissed/,
  );
  const providers = doc.paths["/api/movies/{id}/providers"].get;
  assert.equal(providers.security, undefined);
  assert.deepEqual(providers.parameters.map((p: Doc) => [p.in, p.name]), [
    ["path", "id"],
    ["query", "region"],
  ]);
  assert.match(providers.responses["400"].description, /invalid_region/);
  for (const name of ["CurrentSet", "DismissedList", "Success", "WatchProviders"]) {
    assert.ok(doc.components.schemas[name], name);
  }
});

Deno.test("real current, dismissed and providers answers match their documented schemas", async () => {
  await using w = await recommendWorld();
  await w.get("/api/recommend");
  await conforms(await w.get("/api/recommend/current"), 200, currentSetSchema);
  const post = await w.t.request("/api/recommend/dismissed", {
    method: "POST",
    headers: { ...w.user.headers, "content-type": "application/json" },
    body: JSON.stringify({ catalogId: 15 }),
  });
  await conforms(post, 200, successSchema);
  await conforms(await w.get("/api/recommend/dismissed"), 200, dismissedListSchema);

  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  await conforms(await t.request("/api/movies/550/providers?region=GB"), 200, watchProvidersSchema);
});
