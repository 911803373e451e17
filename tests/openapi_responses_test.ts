/** Real responses and problem bodies of the app match the schemas the OpenAPI document names. */
import assert from "node:assert/strict";
import type { z } from "zod";
import { testApp } from "./helpers/app.ts";
import type { Doc } from "./helpers/openapi.ts";
import { createUser, type TestUser } from "./helpers/users.ts";
import { buildOpenApiDocument } from "../lib/openapi/document.ts";
import {
  movieCardSchema,
  movieListSchema,
  myListWriteSchema,
  problemSchema,
  quotaStatusSchema,
  watchedWriteSchema,
} from "../lib/openapi/schemas.ts";

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
