import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { ENGINES } from "./helpers/store.ts";
import { json, makeList } from "./helpers/lists.ts";
import { createUser } from "./helpers/users.ts";

for (const engine of ENGINES) {
  Deno.test(`[${engine}] a profile is not public until its owner says so, and shows only public lists`, async () => {
    await using t = await testApp({ engine });
    const u = await createUser(t.deps);
    let res = await t.request("/api/me/profile", { headers: u.headers });
    assert.equal(res.status, 404);
    assert.equal((await res.json()).code, "no_profile");
    res = await t.request(
      "/api/me/profile",
      json(u, "PUT", { handle: "film_fan", displayName: " Ana " }),
    );
    assert.equal(res.status, 200);
    const profile = await res.json();
    assert.deepEqual({ ...profile, url: "" }, {
      handle: "film_fan",
      displayName: "Ana",
      public: false,
      showStats: false,
      url: "",
    });
    assert.ok(profile.url.endsWith("/u/film_fan"));
    res = await t.request("/api/profiles/film_fan");
    assert.equal(res.status, 404);
    assert.equal((await res.json()).code, "profile_not_found");
    await makeList(t, u, { name: "Public one", visibility: "public" });
    await makeList(t, u, { name: "Unlisted one", visibility: "unlisted" });
    await makeList(t, u, { name: "Private one" });
    await t.request(
      "/api/me/profile",
      json(u, "PUT", { handle: "film_fan", displayName: "Ana", public: true }),
    );
    res = await t.request("/api/profiles/film_fan");
    const text = await res.text();
    assert.ok(!text.includes(u.email) && !text.includes(u.id));
    const body = JSON.parse(text);
    assert.deepEqual(body.lists.map((l: { name: string }) => l.name), ["Public one"]);
    assert.equal(body.stats, null);
    await t.request("/api/watched", json(u, "POST", { catalogId: 5, rating: 8 }));
    await t.request(
      "/api/me/profile",
      json(u, "PUT", { handle: "film_fan", displayName: "Ana", public: true, showStats: true }),
    );
    res = await t.request("/api/profiles/film_fan");
    const stats = (await res.json()).stats;
    // The diary's all-time figures: a watched movie without a viewing counts once.
    assert.equal(stats.year, null);
    assert.equal(stats.films, 1);
    assert.equal(stats.ratings.average, 8);
  });

  Deno.test(`[${engine}] PUT /api/me/profile with another user's handle answers 409 handle_taken`, async () => {
    await using t = await testApp({ engine });
    const a = await createUser(t.deps);
    const b = await createUser(t.deps);
    await t.request("/api/me/profile", json(a, "PUT", { handle: "same", displayName: "A" }));
    let res = await t.request(
      "/api/me/profile",
      json(b, "PUT", { handle: "same", displayName: "B" }),
    );
    assert.equal(res.status, 409);
    assert.equal((await res.json()).code, "handle_taken");
    for (
      const body of [{ handle: "No", displayName: "x" }, { handle: "okay" }, {
        handle: "okay",
        displayName: "",
      }]
    ) {
      res = await t.request("/api/me/profile", json(b, "PUT", body));
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal((await res.json()).code, "invalid_body");
    }
    res = await t.request(
      "/api/me/profile",
      json(a, "PUT", { handle: "renamed", displayName: "A" }),
    );
    assert.equal((await res.json()).handle, "renamed");
  });
}
