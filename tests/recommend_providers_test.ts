import assert from "node:assert/strict";
import type { AiProvider } from "../lib/core/config.ts";
import { Problem } from "../lib/core/problem.ts";
import { parseOutput } from "../lib/recommend/parse_output.ts";
import { type ChatMessage, complete } from "../lib/recommend/providers.ts";
import { completion, recommendationsContent, startFakeAi } from "./helpers/fake_ai.ts";

const MESSAGES: ChatMessage[] = [
  { role: "system", content: "Answer JSON." },
  { role: "user", content: "Recommend 3 films." },
];
const GOOD = recommendationsContent([{ title: "Heat", year: 1995 }, { title: "Ran", year: 1985 }]);

function provider(name: string, baseUrl: string, models = ["m1"]): AiProvider {
  return { name, baseUrl, apiKey: `key-${name}`, models };
}

async function rejects(promise: Promise<unknown>, status: number, code: string) {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof Problem, String(error));
    assert.equal(error.status, status);
    assert.equal(error.code, code);
    return true;
  });
}

Deno.test("providers: 429, then 500, then a timeout, then the fourth answers", async () => {
  await using a = startFakeAi();
  await using b = startFakeAi();
  await using c = startFakeAi();
  await using d = startFakeAi();
  a.script({ status: 429, body: { error: { message: "Rate limit reached" } } });
  b.script({ status: 500, body: { error: { message: "boom" } } });
  c.script({ delayMs: 5_000, content: GOOD });
  d.script({ content: GOOD });
  const started = performance.now();
  const result = await complete(
    [
      provider("a", a.baseUrl),
      provider("b", b.baseUrl),
      provider("c", c.baseUrl),
      provider("d", d.baseUrl),
    ],
    MESSAGES,
    { fetch, parse: parseOutput, timeoutMs: 200 },
  );
  assert.deepEqual(result.map((r) => r.title), ["Heat", "Ran"]);
  assert.ok(performance.now() - started < 3_000, "the timeout did not wait for the slow provider");
  // The SDK's own retries are off: each provider was asked exactly once.
  assert.deepEqual([a, b, c, d].map((f) => f.requests.length), [1, 1, 1, 1]);
  assert.equal(d.requests[0].authorization, "Bearer key-d");
  assert.equal(d.requests[0].body.model, "m1");
  assert.equal(d.requests[0].body.response_format.type, "json_schema");
  assert.equal(d.requests[0].body.response_format.json_schema.strict, true);
});

Deno.test("providers: each model of a provider is tried in order before the next provider", async () => {
  await using a = startFakeAi();
  await using b = startFakeAi();
  a.script({ status: 503, body: { error: { message: "overloaded" } } }, { content: GOOD });
  const result = await complete(
    [provider("a", a.baseUrl, ["m1", "m2"]), provider("b", b.baseUrl)],
    MESSAGES,
    {
      fetch,
      parse: parseOutput,
    },
  );
  assert.equal(result.length, 2);
  assert.deepEqual(a.requests.map((r) => r.body.model), ["m1", "m2"]);
  assert.equal(b.requests.length, 0);
});

Deno.test("providers: a rejected json_schema is retried once without response_format", async () => {
  await using a = startFakeAi();
  a.script({ rejectResponseFormat: true, content: GOOD }, {
    rejectResponseFormat: true,
    content: GOOD,
  });
  const result = await complete([provider("a", a.baseUrl)], MESSAGES, {
    fetch,
    parse: parseOutput,
  });
  assert.equal(result.length, 2);
  assert.equal(a.requests.length, 2);
  assert.ok(a.requests[0].body.response_format);
  assert.equal(a.requests[1].body.response_format, undefined);
  assert.deepEqual(a.requests[1].body.messages, MESSAGES);
});

Deno.test("providers: an LM Studio style 400 with a string error naming response_format is retried plain", async () => {
  await using a = startFakeAi();
  a.script(
    { status: 400, body: { error: "'response_format.type' must be 'json_schema' or 'text'" } },
    { content: "```json\n" + GOOD + "\n```" },
  );
  const result = await complete([provider("a", a.baseUrl)], MESSAGES, {
    fetch,
    parse: parseOutput,
  });
  assert.equal(result.length, 2);
  assert.equal(a.requests[1].body.response_format, undefined);
});

Deno.test("providers: another 400 is not retried on the same model; the next provider answers", async () => {
  await using a = startFakeAi();
  await using b = startFakeAi();
  a.script({ status: 400, body: { error: { message: "model 'm1' not found" } } });
  b.script({ content: GOOD });
  const result = await complete([provider("a", a.baseUrl), provider("b", b.baseUrl)], MESSAGES, {
    fetch,
    parse: parseOutput,
  });
  assert.equal(result.length, 2);
  assert.equal(a.requests.length, 1);
});

Deno.test("providers: a 200 with free text moves on; a bare array from the next is accepted", async () => {
  await using a = startFakeAi();
  await using b = startFakeAi();
  a.script({ content: "Sure! I think you would love Heat and Ran." });
  b.script({ content: '[{"title":"Heat","year":1995,"reason":"x"}]' });
  const result = await complete([provider("a", a.baseUrl), provider("b", b.baseUrl)], MESSAGES, {
    fetch,
    parse: parseOutput,
  });
  assert.deepEqual(result, [{ title: "Heat", year: 1995, reason: "x" }]);
});

Deno.test("providers: garbage from every provider is 502 ai_bad_output", async () => {
  await using a = startFakeAi();
  await using b = startFakeAi();
  a.script({ content: "no idea" });
  b.script({ body: completion(null) });
  await rejects(
    complete([provider("a", a.baseUrl), provider("b", b.baseUrl)], MESSAGES, {
      fetch,
      parse: parseOutput,
    }),
    502,
    "ai_bad_output",
  );
});

Deno.test("providers: none configured is 503 ai_unavailable", async () => {
  await rejects(complete([], MESSAGES, { fetch, parse: parseOutput }), 503, "ai_unavailable");
});

Deno.test("providers: all unavailable (429, 5xx, refused connection) is 503 ai_unavailable", async () => {
  await using a = startFakeAi();
  await using b = startFakeAi();
  a.script({ status: 429, body: { error: { message: "slow down" } } });
  b.script({ status: 502, body: "<html>bad gateway</html>" });
  const closed = startFakeAi();
  const refusedUrl = closed.baseUrl;
  await closed.close();
  await rejects(
    complete(
      [provider("a", a.baseUrl), provider("b", b.baseUrl), provider("gone", refusedUrl)],
      MESSAGES,
      { fetch, parse: parseOutput },
    ),
    503,
    "ai_unavailable",
  );
});

Deno.test("providers: OPENAI_ORG_ID and OPENAI_PROJECT_ID in the environment never reach a provider", async () => {
  await using a = startFakeAi();
  a.script({ content: GOOD });
  Deno.env.set("OPENAI_ORG_ID", "org-not-for-you");
  Deno.env.set("OPENAI_PROJECT_ID", "proj-not-for-you");
  try {
    await complete([provider("a", a.baseUrl)], MESSAGES, { fetch, parse: parseOutput });
  } finally {
    Deno.env.delete("OPENAI_ORG_ID");
    Deno.env.delete("OPENAI_PROJECT_ID");
  }
  const sent = JSON.stringify(a.requests[0].headers);
  assert.ok(!sent.includes("not-for-you"), sent);
  assert.equal(a.requests[0].headers["authorization"], "Bearer key-a");
});
