/** The TMDB client's requests: how each kind of key is sent, and only the three allowed paths. */
import assert from "node:assert/strict";
import { createExternalWindow } from "../lib/catalog/external_window.ts";
import { createTmdbClient, RefusedPathError, tmdbUrl } from "../lib/catalog/tmdb_client.ts";
import { tmdbList } from "../lib/catalog/tmdb_schemas.ts";
import { testApp } from "./helpers/app.ts";
import { startFakeTmdb, tmdbEnv } from "./helpers/fake_tmdb.ts";

Deno.test("a v3 key goes as api_key, a v4 token as Authorization: Bearer", async () => {
  await using fake = await startFakeTmdb();
  {
    await using t = await testApp({ env: tmdbEnv(fake) });
    assert.equal((await t.request("/api/movies/search?q=dune")).status, 200);
    assert.equal(fake.requests[0].query.get("api_key"), "test-api-key");
    assert.equal(fake.requests[0].authorization, null);
  }
  {
    // With both configured the token (TMDB's default method) is used, and the key never sent.
    await using t = await testApp({
      env: { ...tmdbEnv(fake, { bearer: true }), TMDB_API_KEY: "test-api-key" },
    });
    assert.equal((await t.request("/api/movies/search?q=dune")).status, 200);
    assert.equal(fake.requests[1].authorization, "Bearer test-read-access-token");
    assert.equal(fake.requests[1].query.has("api_key"), false);
  }
});

Deno.test("a path outside the three allowed calls is refused before any request", async () => {
  await using fake = await startFakeTmdb();
  await using t = await testApp({ env: tmdbEnv(fake) });
  const window = createExternalWindow(t.deps.kv, { clock: t.deps.clock });
  const client = createTmdbClient(t.deps, { window });
  for (
    const [path, params] of [
      ["/genre/movie/list", {}],
      ["/movie/550/credits", {}],
      ["/movie/latest", {}],
      ["/movie/0", {}],
      ["/search/tv", { query: "x" }],
      ["/movie/popular/../../account", {}],
      ["/movie/popular", { page: "1", with_genres: "28" }],
      ["/movie/550", { append_to_response: "credits", api_key: "x" }],
      ["/movie/550", { append_to_response: "credits,videos,watch/providers,similar" }],
      [
        "/movie/550",
        {
          append_to_response:
            "credits,videos,watch/providers,release_dates,keywords,external_ids,similar",
        },
      ],
      ["/movie/550", { append_to_response: "images" }],
    ] as [string, Record<string, string>][]
  ) {
    await assert.rejects(
      client.request(path, params, { schema: tmdbList, wait: false }),
      RefusedPathError,
      path,
    );
  }
  assert.equal(fake.requests.length, 0);
  assert.equal(
    await window.taken(t.deps.clock.now()),
    0,
    "a refused call takes no place in the window",
  );
  assert.equal(
    tmdbUrl("https://api.example/3/", "/movie/popular", { page: "2" }).href,
    "https://api.example/3/movie/popular?page=2",
  );
});
