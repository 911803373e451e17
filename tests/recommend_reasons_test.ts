import assert from "node:assert/strict";
import { cleanReason, MAX_REASON_CHARS } from "../lib/recommend/reasons.ts";
import { parseOutput } from "../lib/recommend/parse_output.ts";
import { POOL, recommendWorld } from "./helpers/recommend_world.ts";

const PICKS = POOL.slice(14, 20); // Film 15..20: none watched, none in My List

function content(reasons: (string | undefined)[]): string {
  return JSON.stringify({
    recommendations: PICKS.map((m, i) => ({ title: m.title, year: m.year, reason: reasons[i] })),
  });
}

Deno.test("cleanReason keeps plain text, strips markup, drops long or owner-naming reasons", () => {
  assert.equal(cleanReason("  A tense  heist\nfilm. "), "A tense heist film.");
  assert.equal(
    cleanReason("<b>Dark</b> and **stylish**, like [Heat](https://x.test)<script>x()</script>"),
    "Dark and stylish, like Heat",
  );
  assert.equal(cleanReason("x".repeat(MAX_REASON_CHARS)), "x".repeat(MAX_REASON_CHARS));
  assert.equal(cleanReason("x".repeat(MAX_REASON_CHARS + 1)), "");
  assert.equal(cleanReason("<br/>"), "");
  assert.equal(cleanReason(42), "");
  const owner = { email: "Ann@Example.test", userId: "7f3c0000-0000-4000-8000-000000000001" };
  assert.equal(cleanReason("Picked for ann@example.test", owner), "");
  assert.equal(cleanReason("user 7f3c0000-0000-4000-8000-000000000001 likes it", owner), "");
  assert.equal(cleanReason("Ann would like it", owner), "Ann would like it");
});

Deno.test("parseOutput keeps a pick whose reason is missing, not a string, or huge", () => {
  const picks = parseOutput(JSON.stringify({
    recommendations: [
      { title: "A", year: 2000 },
      { title: "B", year: 2001, reason: 7 },
      { title: "C", year: 2002, reason: "y".repeat(5000) },
    ],
  }));
  assert.deepEqual(picks.map((p) => [p.title, p.reason]), [["A", ""], ["B", ""], ["C", ""]]);
});

Deno.test("GET /api/recommend stores each pick's reason from json_schema output", async () => {
  await using w = await recommendWorld();
  w.ai.script({ content: content(PICKS.map((m) => `Because ${m.title} is sharp.`)) });
  const res = await w.get("/api/recommend");
  assert.equal(res.status, 200);
  // The answer keeps its interface shape: ids only.
  assert.deepEqual((await res.json()).recommendations, [15, 16, 17, 18, 19, 20]);
  const request = w.ai.requests[0].body;
  assert.equal(request.response_format.type, "json_schema");
  const item = request.response_format.json_schema.schema.properties.recommendations.items;
  assert.equal(item.properties.reason.type, "string");
  assert.match(item.properties.reason.description, /200 characters/);
  assert.match(request.messages[0].content, /"reason": one plain-text line/);
  const [row] = await w.t.store.query<{ reasons: unknown }>(
    "select reasons from public.recommendations where user_id = $1",
    [w.user.id],
  );
  const reasons = typeof row.reasons === "string" ? JSON.parse(row.reasons) : row.reasons;
  assert.deepEqual(
    reasons,
    Object.fromEntries(PICKS.map((m) => [m.id, `Because ${m.title} is sharp.`])),
  );
});

Deno.test("reasons are parsed from the plain-JSON fallback when the provider rejects json_schema", async () => {
  await using w = await recommendWorld();
  const fenced = "```json\n" + content(PICKS.map((m) => `Fallback reason for ${m.title}`)) +
    "\n```";
  w.ai.script({ rejectResponseFormat: true }, { content: fenced });
  assert.equal((await w.get("/api/recommend")).status, 200);
  assert.equal(w.ai.requests.length, 2);
  assert.equal(w.ai.requests[1].body.response_format, undefined);
  // The fallback prompt asks for the reason in words, since no schema carries it.
  assert.match(w.ai.requests[1].body.messages[0].content, /"reason":string/);
  assert.match(w.ai.requests[1].body.messages[0].content, /at most 200 characters/);
  const current = await (await w.get("/api/recommend/current")).json();
  assert.deepEqual(
    current.recommendations,
    PICKS.map((m) => ({ catalogId: m.id, reason: `Fallback reason for ${m.title}` })),
  );
});

Deno.test("a reason too long, with markup, or naming the user's email is cleaned or dropped; the pick stays", async () => {
  await using w = await recommendWorld();
  w.ai.script({
    content: content([
      "z".repeat(201),
      "<em>Moody</em> **neo-noir**",
      `Made for ${w.user.email.toUpperCase()}!`,
      `Your id ${w.user.id} says so`,
      undefined,
      "Plain and fine.",
    ]),
  });
  assert.equal((await w.get("/api/recommend")).status, 200);
  const current = await (await w.get("/api/recommend/current")).json();
  assert.deepEqual(current.recommendations, [
    { catalogId: 15, reason: "" },
    { catalogId: 16, reason: "Moody neo-noir" },
    { catalogId: 17, reason: "" },
    { catalogId: 18, reason: "" },
    { catalogId: 19, reason: "" },
    { catalogId: 20, reason: "Plain and fine." },
  ]);
});
