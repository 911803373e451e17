/**
 * What a recommended set may hold (no watched movie, few My List ones, at most 20) and what the
 * prompt may not.
 */
import assert from "node:assert/strict";
import { recommendationsContent } from "./helpers/fake_ai.ts";
import {
  markWatched,
  MY_LIST,
  numberedMovies,
  POOL,
  recommendWorld,
  seedMovies,
  setMyList,
  WATCHED,
} from "./helpers/recommend_world.ts";

Deno.test("GET /api/recommend never returns a watched movie, at most 2 My List movies last, no duplicates", async () => {
  await using w = await recommendWorld();
  const titles = [1, 11, 21, 12, 2, 21, 13, 22, 14, 23, 3, 24, 22, 25].map((id) => POOL[id - 1]);
  w.ai.script({ content: recommendationsContent(titles) });
  const body = await (await w.get("/api/recommend")).json();
  assert.deepEqual(body.recommendations, [21, 22, 23, 24, 25, 11, 12]);
  const ids: number[] = body.recommendations;
  assert.ok(ids.length >= 5 && ids.length <= 20);
  assert.equal(new Set(ids).size, ids.length);
  assert.ok(!ids.some((id) => WATCHED.includes(id)));
  assert.ok(ids.filter((id) => MY_LIST.includes(id)).length <= 2);
});

Deno.test("GET /api/recommend returns at most 20 even when the AI names 40 valid movies", async () => {
  await using w = await recommendWorld();
  await seedMovies(w.t.store, numberedMovies(61, 100));
  w.ai.script({ content: recommendationsContent(numberedMovies(61, 100)) });
  const body = await (await w.get("/api/recommend")).json();
  assert.deepEqual(body.recommendations, numberedMovies(61, 80).map((m) => m.id));
});

Deno.test("the prompt has no email or user id and stays bounded for a history of 5,000 movies", async () => {
  await using w = await recommendWorld();
  const history = numberedMovies(1001, 6000).map((m) => ({
    ...m,
    title: `${m.title} ${"and a rather long subtitle ".repeat(3)}`.trim(),
    genres: ["Drama", "Crime", "Thriller", "Mystery"],
  }));
  await seedMovies(w.t.store, history);
  await markWatched(w.t.store, w.user.id, history.map((m) => m.id));
  await setMyList(w.t.store, w.user.id, numberedMovies(31, 60).map((m) => m.id));
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 200);
  const sent = JSON.stringify(w.ai.requests[0].body.messages);
  assert.ok(!sent.includes(w.user.email), "email in the prompt");
  assert.ok(!sent.includes(w.user.id), "user id in the prompt");
  assert.ok(!sent.includes(w.user.email.split("@")[0]), "email name in the prompt");
  assert.ok(sent.length < 30_000, `prompt is ${sent.length} characters`);
  const user = w.ai.requests[0].body.messages[1].content as string;
  assert.match(user, /Films watched: 5010\./);
  // The most recent first, at most 60 of them.
  const watchedLines = user.split("Saved to watch later")[0].split("\n").filter((l) =>
    l.startsWith("- ")
  );
  assert.equal(watchedLines.length, 60);
  assert.ok(watchedLines[0].startsWith("- Film 6000 "));
});
