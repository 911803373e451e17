import assert from "node:assert/strict";
import { Problem } from "../lib/core/problem.ts";
import { generate } from "../lib/recommend/ai_rounds.ts";
import type { Candidate } from "../lib/recommend/parse_output.ts";
import type { ChatMessage } from "../lib/recommend/providers.ts";
import { titleKey } from "../lib/catalog/title_match.ts";
import { type CandidateSearch, resolveTitles } from "../lib/recommend/resolve_titles.ts";
import type { Taste } from "../lib/recommend/taste.ts";
import { ENGINES, testStore } from "./helpers/store.ts";
import { seedMovies } from "./helpers/recommend_world.ts";

function taste(watched: number[], myList: number[] = []): Taste {
  return { watchedIds: watched, recent: [], genres: [], myListIds: myList, myList: [] };
}

const idsOf = (picks: { catalogId: number }[]) => picks.map((p) => p.catalogId);
const cand = (id: number): Candidate => ({ title: `Film ${id}`, year: 2000, reason: "" });
// Resolution by the number in the title; "Unknown ..." titles stay unresolved.
const resolveByNumber = (cs: Candidate[]) =>
  Promise.resolve(cs.map((c) => Number(/^Film (\d+)$/.exec(c.title)?.[1]) || null));

Deno.test("generate: never watched, at most 2 My List movies and last, no duplicates", async () => {
  const ids = idsOf(
    await generate(taste([1, 2, 3], [4, 5, 6]), {
      ask: () => Promise.resolve([1, 4, 7, 5, 8, 7, 2, 6, 9, 10, 11, 9].map(cand)),
      resolve: resolveByNumber,
    }),
  );
  assert.deepEqual(ids, [7, 8, 9, 10, 11, 4, 5]);
});

Deno.test("generate: at most 20 are kept, with the My List pair still last", async () => {
  const ids = idsOf(
    await generate(taste([1], [50, 51]), {
      ask: () =>
        Promise.resolve([50, 51, ...Array.from({ length: 30 }, (_, i) => i + 2)].map(cand)),
      resolve: resolveByNumber,
    }),
  );
  assert.equal(ids.length, 20);
  assert.deepEqual(ids.slice(-2), [50, 51]);
  assert.equal(new Set(ids).size, 20);
});

Deno.test("generate: exactly 5 valid is enough; one round only", async () => {
  let rounds = 0;
  const ids = idsOf(
    await generate(taste([1]), {
      ask: () => {
        rounds++;
        return Promise.resolve([1, 2, 3, 4, 5, 6].map(cand));
      },
      resolve: resolveByNumber,
    }),
  );
  assert.deepEqual(ids, [2, 3, 4, 5, 6]);
  assert.equal(rounds, 1);
});

Deno.test("generate: 4 valid after 3 rounds is 502 ai_bad_output; later rounds avoid the rejects", async () => {
  const prompts: ChatMessage[][] = [];
  await assert.rejects(
    generate(taste([1]), {
      ask: (messages) => {
        prompts.push(messages);
        return Promise.resolve([
          cand(1),
          { title: `Unknown ${prompts.length}`, year: null, reason: "" },
          cand(2),
          cand(3),
          cand(4),
          cand(5),
        ]);
      },
      resolve: resolveByNumber,
    }),
    (e: unknown) => e instanceof Problem && e.status === 502 && e.code === "ai_bad_output",
  );
  assert.equal(prompts.length, 3);
  const second = prompts[1][1].content;
  assert.match(second, /Do not recommend any of these:/);
  assert.match(second, /- Film 1 \(2000\)/);
  assert.match(second, /- Unknown 1\n/);
  assert.match(prompts[2][1].content, /- Unknown 2\n/);
  // Each round asks for more.
  assert.match(prompts[0][1].content, /Recommend 20 films\./);
  assert.match(prompts[1][1].content, /Recommend 25 films\./);
});

Deno.test("generate: unresolvable titles over 3 rounds are 502", async () => {
  let rounds = 0;
  await assert.rejects(
    generate(taste([1]), {
      ask: () => {
        rounds++;
        return Promise.resolve([{ title: "No Such Film", year: 2001, reason: "" }]);
      },
      resolve: (cs) => Promise.resolve(cs.map(() => null)),
    }),
    (e: unknown) => e instanceof Problem && e.status === 502,
  );
  assert.equal(rounds, 3);
});

Deno.test("generate: getNew's previous set is never returned and is listed to avoid", async () => {
  let prompt = "";
  const ids = idsOf(
    await generate(taste([1]), {
      previousIds: [2, 3],
      previousTitles: ["Film 2 (2000)", "Film 3 (2000)"],
      ask: (messages) => {
        prompt = messages[1].content;
        return Promise.resolve([2, 3, 4, 5, 6, 7, 8].map(cand));
      },
      resolve: resolveByNumber,
    }),
  );
  assert.deepEqual(ids, [4, 5, 6, 7, 8]);
  assert.match(prompt, /- Film 2 \(2000\)\n- Film 3 \(2000\)/);
});

Deno.test("titleKey ignores case, accents, spaces and punctuation", () => {
  assert.equal(titleKey("Amélie"), titleKey("AMELIE"));
  assert.equal(
    titleKey("Spider-Man: Into the Spider-Verse"),
    titleKey("spider man into the spider verse"),
  );
  assert.equal(titleKey("千と千尋の神隠し"), "千と千尋の神隠し");
  assert.equal(titleKey("Amélie’s “Day” & Night!"), titleKey("amelies day night"));
});

for (const engine of ENGINES) {
  Deno.test(`resolveTitles (${engine}): the movies store first, by title or original title, with the year`, async () => {
    await using store = await testStore(engine);
    const base = engine === "postgres"
      ? 900_000_000 + Math.floor(Math.random() * 1_000_000) * 10
      : 0;
    // The PostgreSQL database is shared by every test file of a run, and others store movies
    // with these titles (imports, search hits kept as light rows): this run's titles are its own.
    const x = engine === "postgres"
      ? ` ${crypto.randomUUID().replace(/[^a-f]/g, "").slice(0, 8)}`
      : "";
    await seedMovies(store, [
      {
        id: base + 1,
        title: `Amélie${x}`,
        originalTitle: `Le Fabuleux Destin d'Amélie Poulain${x}`,
        year: 2001,
      },
      { id: base + 2, title: `Dune${x}`, year: 1984, popularity: 50 },
      { id: base + 3, title: `Dune${x}`, year: 2021, popularity: 90 },
      {
        id: base + 4,
        title: `Spirited Away${x}`,
        originalTitle: `千と千尋の神隠し${x}`,
        year: 2001,
      },
    ]);
    const searched: string[] = [];
    const search: CandidateSearch = (title, options) => {
      searched.push(`${title}|${options.year ?? ""}|${options.wait}`);
      if (title === `Heat${x}`) {
        return Promise.resolve({
          results: [
            { id: 11, title: `Heat${x}`, original_title: `Heat${x}`, release_date: "1986-01-01" },
            { id: 949, title: `Heat${x}`, original_title: `Heat${x}`, release_date: "1995-12-15" },
          ],
        });
      }
      if (title === "Broken Search") return Promise.reject(new Error("upstream 500"));
      return Promise.resolve({
        results: [{ id: 5, title: "Something Else", release_date: "1995-01-01" }],
      });
    };
    const ids = await resolveTitles([
      { title: `AMELIE${x.toUpperCase()}`, year: 2001, reason: "" },
      { title: `le fabuleux destin d’amelie poulain${x}`, year: null, reason: "" },
      { title: `Dune${x}`, year: 1984, reason: "" },
      { title: `Dune${x}`, year: 2022, reason: "" },
      { title: `Dune${x}`, year: null, reason: "" },
      { title: `Dune${x}`, year: 1950, reason: "" },
      { title: `千と千尋の神隠し${x}`, year: 2001, reason: "" },
      { title: `Heat${x}`, year: 1995, reason: "" },
      { title: "Nonexistent Movie", year: 1995, reason: "" },
      { title: "Broken Search", year: null, reason: "" },
    ], { sql: store, search, now: 0 });
    assert.deepEqual(ids, [
      base + 1,
      // Punctuation does not count, a typographic apostrophe included.
      base + 1,
      base + 2,
      base + 3,
      base + 3,
      null,
      base + 4,
      949,
      null,
      null,
    ]);
    assert.ok(searched.includes(`Heat${x}|1995|true`));
    assert.ok(searched.includes(`Dune${x}|1950|true`));
    assert.ok(!searched.some((s) => s.startsWith("AMELIE")), "a store hit is not searched");
    if (engine === "postgres") {
      await store.query("delete from public.movies where catalog_id between $1 and $2", [
        base,
        base + 9,
      ]);
    }
  });
}
