import assert from "node:assert/strict";
import { type CandidateSearch, resolveTitles } from "../lib/recommend/resolve_titles.ts";
import type { Sql } from "../lib/platform/store/mod.ts";
import { seedMovies } from "./helpers/recommend_world.ts";
import { ENGINES, testStore } from "./helpers/store.ts";

const noSearch: CandidateSearch = () => Promise.reject(new Error("the store should have answered"));

/** `sql` that records every statement it runs. */
function recording(sql: Sql): { sql: Sql; statements: { text: string; params: unknown[] }[] } {
  const statements: { text: string; params: unknown[] }[] = [];
  return {
    statements,
    sql: {
      query: (text, params = []) => {
        statements.push({ text, params });
        return sql.query(text, params);
      },
      exec: (script) => sql.exec(script),
    },
  };
}

for (const engine of ENGINES) {
  Deno.test(`resolveTitles (${engine}): accented and cased titles resolve in one query on the stored title keys`, async () => {
    await using store = await testStore(engine);
    // The PostgreSQL database is shared by runs: ids and titles of this run are its own.
    const base = engine === "postgres" ? 800_000_000 + Math.floor(Math.random() * 1e6) * 10 : 0;
    const tag = crypto.randomUUID().replace(/[^a-f]/g, "").slice(0, 8);
    await seedMovies(store, [
      { id: base + 1, title: `Ça Tourne ${tag}`, year: 2003 },
      { id: base + 2, title: `Summer ${tag}`, originalTitle: `L'Été Brûlant ${tag}`, year: 2010 },
    ]);
    const { sql, statements } = recording(store);
    const ids = await resolveTitles([
      { title: `CA TOURNE ${tag.toUpperCase()}`, year: 2003, reason: "" },
      { title: `l’été brûlant ${tag}`, year: null, reason: "" },
      { title: `ça-tourne: ${tag}!`, year: 2004, reason: "" },
    ], { sql, search: noSearch, now: 0 });
    assert.deepEqual(ids, [base + 1, base + 2, base + 1]);
    assert.equal(statements.length, 1, "one query for all candidates");
    const [lookup] = statements;
    assert.match(lookup.text, /m\.title_key = w\.key/);
    assert.match(lookup.text, /m\.original_title_key = w\.key/);
    assert.doesNotMatch(lookup.text, /normalize/, "stored titles are not normalised per query");

    // The planner can answer both sides from the key indexes (forced: the test table is tiny).
    const plan = await store.transaction(async (tx) => {
      await tx.query("set local enable_seqscan = off");
      const rows = await tx.query<Record<string, string>>(`explain ${lookup.text}`, lookup.params);
      return rows.map((row) => Object.values(row).join(" ")).join("\n");
    });
    assert.match(plan, /movies_title_key_idx/);
    assert.match(plan, /movies_original_title_key_idx/);

    // A rewritten title is found by its new key at once (the key is kept on every write).
    await store.query(
      `update public.movies set title = $2, original_title = $2 where catalog_id = $1`,
      [
        base + 1,
        `Éclair ${tag}`,
      ],
    );
    const renamed = await resolveTitles([
      { title: `eclair ${tag}`, year: 2003, reason: "" },
      { title: `Ça Tourne ${tag}`, year: 2003, reason: "" },
    ], { sql: store, search: () => Promise.resolve({ results: [] }), now: 0 });
    assert.deepEqual(renamed, [base + 1, null]);
  });
}
