import assert from "node:assert/strict";
import { buildMessages } from "../lib/recommend/prompt.ts";
import { RATED_TITLES } from "../lib/recommend/rated.ts";
import type { Taste } from "../lib/recommend/taste.ts";
import { testApp } from "./helpers/app.ts";
import {
  markWatched,
  numberedMovies,
  recommendWorld,
  seedMovies,
} from "./helpers/recommend_world.ts";
import { createUser } from "./helpers/users.ts";

async function rate(
  store: { query(q: string, p: unknown[]): Promise<unknown> },
  userId: string,
  ratings: Record<number, number>,
) {
  for (const [id, rating] of Object.entries(ratings)) {
    await store.query(
      "update public.user_watched_movies set rating = $3 where user_id = $1 and catalog_id = $2",
      [userId, Number(id), rating],
    );
  }
}

// The prompt of the standard world (Film 1..10 watched, Film 11..14 saved) as it was before
// ratings existed (lib/recommend/prompt.ts at ed50c65): an unrated history must still get it.
const UNRATED_PROMPT = `Films watched: 10. Most recent first:
- Film 10 (2000) [Comedy]
- Film 9 (1999) [Drama, Crime]
- Film 8 (1998) [Comedy]
- Film 7 (1997) [Drama, Crime]
- Film 6 (1996) [Comedy]
- Film 5 (1995) [Drama, Crime]
- Film 4 (1994) [Comedy]
- Film 3 (1993) [Drama, Crime]
- Film 2 (1992) [Comedy]
- Film 1 (1991) [Drama, Crime]
Genres of the watched films (count): Comedy 5, Crime 5, Drama 5.
Saved to watch later (at most 2 of these may be recommended):
- Film 11 (2001)
- Film 12 (2002)
- Film 13 (2003)
- Film 14 (2004)
Recommend 20 films.`;

Deno.test("an unrated history gives exactly the prompt it gave before ratings", async () => {
  await using w = await recommendWorld();
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 200);
  await res.body?.cancel();
  assert.equal(w.ai.requests[0].body.messages[1].content, UNRATED_PROMPT);
  assert.doesNotMatch(w.ai.requests[0].body.messages[0].content, /disliked|loved/i);
});

Deno.test("the prompt lists loved, liked and disliked titles apart, best and most recent first, and says to avoid what resembles the disliked", async () => {
  await using w = await recommendWorld();
  // Film 10 is the most recent; 3 and 9 tie at 9 (9 more recent), 1 and 6 tie at 2.
  await rate(w.t.store, w.user.id, { 3: 9, 9: 9, 5: 10, 7: 8, 2: 6, 8: 5, 1: 2, 6: 2, 4: 4 });
  // A watch date decides recency over the add time: Film 1 was watched last; the others'
  // dates are unknown, so their add times (one minute apart, Film 10 last) order them.
  await w.t.store.query(
    `update public.user_watched_movies
        set watched_on = case catalog_id when 1 then date '2026-06-01' end
      where user_id = $1`,
    [w.user.id],
  );
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 200);
  await res.body?.cancel();
  const prompt = w.ai.requests[0].body.messages[1].content as string;
  const rated = prompt.slice(
    prompt.indexOf("Loved"),
    prompt.indexOf("Saved to watch later"),
  );
  assert.equal(
    rated,
    `Loved (rated 8-10 of 10), best and most recent first:
- Film 5 (1995): 10/10
- Film 9 (1999): 9/10
- Film 3 (1993): 9/10
- Film 7 (1997): 8/10
Liked (rated 5-7):
- Film 2 (1992): 6/10
- Film 8 (1998): 5/10
Disliked (rated 1-4), most disliked first:
- Film 1 (1991): 2/10
- Film 6 (1996): 2/10
- Film 4 (1994): 4/10
Avoid films that resemble the disliked ones (same premise, style or franchise); lean towards what resembles the loved ones.
`,
  );
  // The rest of the profile is as before; the rated sections sit between it and My List.
  assert.ok(prompt.startsWith(UNRATED_PROMPT.split("Saved to watch later")[0]));
  assert.ok(prompt.endsWith(UNRATED_PROMPT.slice(UNRATED_PROMPT.indexOf("Saved to watch later"))));
});

Deno.test("only loved titles: no avoid instruction, a lean towards them", () => {
  const taste: Taste = {
    watchedIds: [1],
    recent: [],
    genres: [],
    myListIds: [],
    myList: [],
    rated: { loved: [{ title: "Heat", year: 1995, rating: 10 }], liked: [], disliked: [] },
  };
  const user = buildMessages(taste, { want: 20, avoid: [] })[1].content;
  assert.match(
    user,
    /Loved \(rated 8-10 of 10\), best and most recent first:\n- Heat \(1995\): 10\/10\n/,
  );
  assert.match(user, /Lean towards films that resemble the loved ones\./);
  assert.doesNotMatch(user, /Avoid films/);
});

Deno.test("the prompt of 5,000 rated watched movies with long titles stays within the bound", async () => {
  await using t = await testApp();
  const u = await createUser(t.deps);
  const history = numberedMovies(1001, 6000).map((m) => ({
    ...m,
    title: `${m.title} ${"and a rather long subtitle ".repeat(6)}`.trim(),
    genres: ["Drama", "Crime", "Thriller", "Mystery"],
  }));
  await seedMovies(t.store, history);
  await markWatched(t.store, u.id, history.map((m) => m.id));
  await t.store.query(
    "update public.user_watched_movies set rating = 1 + catalog_id % 10 where user_id = $1",
    [u.id],
  );
  const { loadTaste } = await import("../lib/recommend/taste.ts");
  const taste = await t.store.asUser(u.id, (tx) => loadTaste(tx, u.id));
  assert.deepEqual(
    [taste.rated!.loved.length, taste.rated!.liked.length, taste.rated!.disliked.length],
    [RATED_TITLES.loved, RATED_TITLES.liked, RATED_TITLES.disliked],
  );
  // The best rated first, the most recent among equals: Film 5999 is the last 10/10 added.
  assert.equal(taste.rated!.loved[0].rating, 10);
  assert.match(taste.rated!.loved[0].title, /^Film 5999 /);
  assert.equal(taste.rated!.disliked[0].rating, 1);
  const avoid = Array.from({ length: 80 }, (_, i) => `${"Rejected ".repeat(12)}${i}`);
  const size = JSON.stringify(buildMessages(taste, { want: 20, avoid })).length;
  assert.ok(size < 30_000, `prompt is ${size} characters`);
});
