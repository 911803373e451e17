import assert from "node:assert/strict";
import { Hono } from "hono";
import { StaticTableRouter } from "../lib/http/router.ts";

// A small app shaped like ours: global middleware, a folder middleware, static routes beside a
// parameter (which Hono's RegExpRouter refuses alone), and a catch-all 405 per route.
function shapedApp(): Hono {
  const app = new Hono({ router: new StaticTableRouter() });
  app.use("*", async (c, next) => {
    await next();
    c.res.headers.set("x-seen", "root");
  });
  app.use("/static/*", async (c, next) => {
    await next();
    c.res.headers.set("x-static", "1");
  });
  app.get("/api/movies/search", (c) => c.text("search"));
  app.all("/api/movies/search", (c) => c.text("405 search", 405));
  app.get("/api/movies/popular", (c) => c.text("popular"));
  app.get("/api/movies/:id", (c) => c.text(`detail ${c.req.param("id")}`));
  app.all("/api/movies/:id", (c) => c.text("405 detail", 405));
  app.get("/static/*", (c) => c.text(`file ${c.req.path}`));
  app.get("/", (c) => c.text("home"));
  return app;
}

async function answer(app: Hono, path: string, method = "GET") {
  const res = await app.request(path, { method });
  return { status: res.status, text: await res.text(), seen: res.headers.get("x-seen") };
}

Deno.test("the router sends a static path beside a parameter to its own route, first in order", async () => {
  const app = shapedApp();
  for (let i = 0; i < 2; i++) {
    // The second round is answered from the static table.
    assert.deepEqual(await answer(app, "/api/movies/search"), {
      status: 200,
      text: "search",
      seen: "root",
    });
    assert.deepEqual(await answer(app, "/api/movies/popular"), {
      status: 200,
      text: "popular",
      seen: "root",
    });
  }
});

Deno.test("the router matches parameters, wildcards and the 405 catch-alls as Hono's own routers", async () => {
  const app = shapedApp();
  assert.deepEqual(await answer(app, "/api/movies/603"), {
    status: 200,
    text: "detail 603",
    seen: "root",
  });
  assert.deepEqual(await answer(app, "/api/movies/603", "PUT"), {
    status: 405,
    text: "405 detail",
    seen: "root",
  });
  assert.deepEqual(await answer(app, "/api/movies/search", "POST"), {
    status: 405,
    text: "405 search",
    seen: "root",
  });
  const file = await app.request("/static/app.css");
  assert.deepEqual([file.status, await file.text(), file.headers.get("x-static")], [
    200,
    "file /static/app.css",
    "1",
  ]);
  assert.deepEqual(await answer(app, "/"), { status: 200, text: "home", seen: "root" });
  assert.deepEqual((await answer(app, "/nowhere")).status, 404);
  assert.deepEqual((await answer(app, "/api/movies/search/")).status, 404);
});

Deno.test("the router answers an unusual method on a static path without tabling it", async () => {
  const app = shapedApp();
  assert.deepEqual(await answer(app, "/api/movies/search", "PROPFIND"), {
    status: 405,
    text: "405 search",
    seen: "root",
  });
  assert.deepEqual(await answer(app, "/api/movies/search", "HEAD"), {
    status: 200,
    text: "",
    seen: "root",
  });
});
