import assert from "node:assert/strict";
import type { z } from "zod";
import {
  entryPatchSchema,
  parseEntryPatch,
  parseWatchedWrite,
  watchedPostSchema,
} from "../lib/library/entries/watched_payload.ts";
import { buildOpenApiDocument } from "../lib/openapi/document.ts";
import { jsonSchemaOf } from "../lib/openapi/json_schema.ts";
import {
  entryResultSchema,
  movieListSchema,
  problemSchema,
  watchedListSchema,
} from "../lib/openapi/schemas.ts";
import { testApp } from "./helpers/app.ts";
import { createUser, type TestUser } from "./helpers/users.ts";

// deno-lint-ignore no-explicit-any
type Doc = any;
const NOW = Date.parse("2026-11-22T12:00:00Z");

function accepts(parse: () => unknown): boolean {
  try {
    parse();
    return true;
  } catch {
    return false;
  }
}

function send(u: TestUser, method: string, body: unknown): RequestInit {
  return {
    method,
    headers: { ...u.headers, "content-type": "application/json" },
    body: JSON.stringify(body),
  };
}

async function conforms<S extends z.ZodType>(res: Response, status: number, schema: S) {
  assert.equal(res.status, status);
  const body = await res.json();
  const parsed = schema.safeParse(body);
  assert.ok(parsed.success, `${JSON.stringify(body)}: ${parsed.error?.message}`);
  return parsed.data!;
}

const FIELDS: Record<string, unknown>[] = [
  { rating: 1 },
  { rating: 10 },
  { rating: 0 },
  { rating: 11 },
  { rating: 2.5 },
  { rating: "8" },
  { rating: null },
  { watchedOn: "2024-02-29" },
  { watchedOn: "2024-02-30" },
  { watchedOn: "1874-01-01" },
  { watchedOn: "1873-12-31" },
  { watchedOn: "2024-1-5" },
  { watchedOn: null },
  { note: "x".repeat(2000) },
  { note: "x".repeat(2001) },
  { note: "🎬".repeat(2000) },
  { note: null },
  { note: 3 },
  { rating: 5, watchedOn: "2020-01-01", note: "n" },
];

Deno.test("the entry PATCH parser accepts exactly the bodies its documented schema accepts", () => {
  const bodies: unknown[] = [...FIELDS, {}, { other: 1 }, { rating: 5, other: 1 }, [], null, "x"];
  for (const body of bodies) {
    assert.equal(
      accepts(() => parseEntryPatch(body, NOW)),
      entryPatchSchema.safeParse(body).success,
      JSON.stringify(body),
    );
  }
});

Deno.test("the POST /api/watched parser accepts exactly the bodies its documented schema accepts", () => {
  const bodies: unknown[] = [
    ...FIELDS.map((f) => ({ catalogId: 5, ...f })),
    ...FIELDS.map((f) => ({ movie: { catalogId: 5 }, ...f })),
    { catalogId: 5, extra: true },
    { rating: 5 },
    { catalogId: 0, rating: 5 },
  ];
  for (const body of bodies) {
    assert.equal(
      accepts(() => parseWatchedWrite(body, NOW)),
      watchedPostSchema.safeParse(body).success,
      JSON.stringify(body),
    );
  }
});

Deno.test("the document describes the entry route, the list queries and the history fields", () => {
  const doc = buildOpenApiDocument() as Doc;
  const entry = doc.paths["/api/watched/{catalogId}"];
  assert.deepEqual(Object.keys(entry), ["get", "patch"]);
  for (const op of [entry.get, entry.patch]) {
    // A session or a personal access token (docs/connections.md).
    assert.deepEqual(op.security, [{ bearerAuth: [] }, { personalAccessToken: [] }]);
    // 503: identity_unavailable and store_unavailable, which every bearer operation documents;
    // 408 and 499: the bounds of a request body (PATCH); 403: a session still owing its second
    // factor (every bearer operation), and a read-only token's write.
    const bounds = op === entry.patch ? ["408", "499"] : [];
    assert.deepEqual(Object.keys(op.responses), [
      "200",
      "400",
      "401",
      "403",
      "404",
      ...bounds,
      "500",
      "503",
    ]);
    assert.deepEqual(op.parameters.map((p: Doc) => `${p.in}:${p.name}:${p.required}`), [
      "path:catalogId:true",
    ]);
    assert.match(op.responses["404"].description, /not_watched/);
    assert.match(op.responses["403"].description, /mfa_required/);
  }
  assert.deepEqual(
    entry.patch.requestBody.content["application/json"].schema,
    jsonSchemaOf(entryPatchSchema, "input"),
  );
  for (const code of ["invalid_rating", "invalid_date", "invalid_note", "invalid_body"]) {
    assert.match(entry.patch.responses["400"].description, new RegExp(code));
    assert.match(doc.paths["/api/watched"].post.responses["400"].description, new RegExp(code));
  }
  const params = (path: string) =>
    doc.paths[path].get.parameters.map((p: Doc) => `${p.in}:${p.name}:${p.required}`);
  // `available` and My List's `include`: what streams on the user's services (docs/availability.md).
  assert.deepEqual(params("/api/watched"), [
    "query:sort:false",
    "query:order:false",
    "query:genre:false",
    "query:rated:false",
    "query:include:false",
    "query:available:false",
    "query:limit:false",
    "query:cursor:false",
  ]);
  assert.deepEqual(params("/api/mylist"), [
    "query:sort:false",
    "query:order:false",
    "query:genre:false",
    "query:include:false",
    "query:available:false",
    "query:limit:false",
    "query:cursor:false",
  ]);
  const sort = doc.paths["/api/watched"].get.parameters[0].schema;
  assert.deepEqual(sort.enum, ["added", "watched_on", "rating", "title", "year", "runtime"]);
  assert.match(doc.paths["/api/watched"].get.responses["400"].description, /invalid_query/);
  assert.deepEqual(doc.paths["/api/watched"].get.responses["200"].content, {
    "application/json": { schema: { $ref: "#/components/schemas/WatchedList" } },
  });
  assert.ok(doc.components.schemas.WatchedEntry);
});

Deno.test("real entry and list responses with history match their documented schemas", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  t.clock.advance(1000);
  await (await t.request("/api/watched", send(u, "POST", { catalogId: 603, rating: 8 }))).body
    ?.cancel();
  await conforms(
    await t.request("/api/watched/603", { headers: u.headers }),
    200,
    entryResultSchema,
  );
  await conforms(
    await t.request("/api/watched/603", send(u, "PATCH", { note: "n", watchedOn: null })),
    200,
    entryResultSchema,
  );
  const list = await conforms(
    await t.request("/api/watched?include=entry&sort=rating", { headers: u.headers }),
    200,
    watchedListSchema,
  );
  assert.equal(list.movies[0].entry?.rating, 8);
  await conforms(
    await t.request("/api/mylist?sort=title&genre=drama", { headers: u.headers }),
    200,
    movieListSchema,
  );
  for (
    const [path, init, status] of [
      ["/api/watched/604", { headers: u.headers }, 404],
      ["/api/watched/603", send(u, "PATCH", { rating: 0 }), 400],
      ["/api/watched?sort=nope", { headers: u.headers }, 400],
    ] as const
  ) {
    await conforms(await t.request(path, init), status, problemSchema);
  }
});
