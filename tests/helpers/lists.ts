/** Requests of the list tests: JSON writes as a user, and the positions of a list in order. */
import assert from "node:assert/strict";
import type { TestApp } from "./app.ts";
import type { TestUser } from "./users.ts";

/** A JSON request of `u`. */
export function json(u: TestUser, method: string, body?: unknown): RequestInit {
  return {
    method,
    headers: { ...u.headers, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}

/** Creates a list for `u` through the API and answers its id. */
export async function makeList(
  t: TestApp,
  u: TestUser,
  body: Record<string, unknown> = { name: "Rainy Sunday" },
): Promise<string> {
  const res = await t.request("/api/lists", json(u, "POST", body));
  assert.equal(res.status, 201);
  return (await res.json()).list.id;
}

/** Adds movies to a list in order through the API. */
export async function addAll(t: TestApp, u: TestUser, listId: string, ids: number[]) {
  for (const catalogId of ids) {
    const res = await t.request(`/api/lists/${listId}/items`, json(u, "POST", { catalogId }));
    assert.equal(res.status, 201, await res.clone().text());
    await res.body?.cancel();
  }
}

/** The list's catalog ids in order, checking the positions are exactly 1..n. */
export async function order(t: TestApp, u: TestUser, listId: string): Promise<number[]> {
  const res = await t.request(`/api/lists/${listId}?limit=500`, { headers: u.headers });
  assert.equal(res.status, 200);
  const body = await res.json();
  const positions = body.movies.map((m: { position: number }) => m.position);
  assert.deepEqual(positions, positions.map((_: number, i: number) => i + 1));
  assert.equal(body.list.count, positions.length);
  return body.movies.map((m: { catalogId: number }) => m.catalogId);
}
