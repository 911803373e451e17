/**
 * The fake movie database and AI provider hanging, dropping the connection mid-answer,
 * answering 500, or answering garbage: every answer is a documented problem (its status in the
 * OpenAPI document for that operation) within its bound, and the server is healthy after.
 */
import { buildOpenApiDocument } from "@/lib/openapi/document.ts";
import { abortable } from "@/tests/helpers/abortable.ts";
import type { FakeAnswer } from "@/tests/helpers/fake_ai.ts";
import { modelLike, POOL } from "@/tests/helpers/recommend_world.ts";
import type { World } from "../load/world.ts";
import { problemCode, record, since } from "./report.ts";

type Mode = "hang" | "drop" | "500" | "garbage";
const MODES: Mode[] = ["hang", "drop", "500", "garbage"];
// The external call's 10 s timeout (docs/catalog.md) plus the window's wait and slack.
const TMDB_BOUND_MS = 10_000 + 5_000 + 3_000;
// The provider's 30 s timeout (docs/recommend.md) plus slack.
const AI_BOUND_MS = 30_000 + 8_000;

// deno-lint-ignore no-explicit-any
const doc: any = buildOpenApiDocument();
const documented = (path: string, status: number) =>
  String(status) in (doc.paths[path]?.get?.responses ?? {});

function tmdbFault(mode: Mode, signal: AbortSignal): () => Promise<Response> {
  return async () => {
    if (mode === "hang") {
      await abortable(120_000, signal);
      return new Response("late", { status: 504 });
    }
    if (mode === "500") return Response.json({ status_message: "boom" }, { status: 500 });
    if (mode === "garbage") {
      return new Response('<html>{"results": [', {
        headers: { "content-type": "application/json" },
      });
    }
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"id": 1, "title": "Du'));
        controller.error(new Error("dropped"));
      },
    });
    return new Response(body, { headers: { "content-type": "application/json" } });
  };
}

function aiFault(mode: Mode): FakeAnswer {
  if (mode === "hang") return { delayMs: 120_000, content: "{}" };
  if (mode === "500") return { status: 500, body: { error: { message: "boom" } } };
  if (mode === "garbage") return { content: "Sure! Here are some movies you might like." };
  return { body: { choices: "dropped" } };
}

async function probe(url: string, path: string, docPath: string, bound: number, headers = {}) {
  const start = performance.now();
  const res = await fetch(`${url}${path}`, { headers });
  const code = await problemCode(res);
  const ms = since(start);
  const ok = res.status >= 400 && code !== undefined && documented(docPath, res.status) &&
    ms <= bound;
  return {
    ok,
    text: `${path.split("?")[0]} ${res.status} ${code ?? "(not a problem)"} in ${ms} ms`,
  };
}

/** Runs every fault mode of both upstreams against `world` (which needs 4 extra users). */
export async function upstreamFaults(world: World): Promise<void> {
  const url = world.server.url;
  for (const [i, mode] of MODES.entries()) {
    const release = new AbortController();
    world.tmdb.override = tmdbFault(mode, release.signal);
    const results = await Promise.all([
      probe(url, `/api/movies/${8_100_000 + i}`, "/api/movies/{id}", TMDB_BOUND_MS),
      probe(url, `/api/movies/search?q=chaos-${mode}`, "/api/movies/search", TMDB_BOUND_MS),
      probe(url, `/api/movies/popular?page=${40 + i}`, "/api/movies/popular", TMDB_BOUND_MS),
    ]);
    release.abort();
    world.tmdb.override = undefined;
    record(
      `movie database ${mode}`,
      results.every((r) => r.ok),
      results.map((r) => r.text).join("; "),
    );
  }
  for (const [i, mode] of MODES.entries()) {
    world.ai.fallback = () => aiFault(mode);
    const headers = { authorization: `Bearer ${world.userTokens[i]}` };
    const r = await probe(url, "/api/recommend?refresh=1", "/api/recommend", AI_BOUND_MS, headers);
    record(`AI provider ${mode === "drop" ? "wrong shape" : mode}`, r.ok, r.text);
  }
  world.ai.fallback = modelLike(POOL);
  const health = await fetch(`${url}/api/health`);
  await health.body?.cancel();
  const detail = await fetch(`${url}/api/movies/84892`);
  await detail.body?.cancel();
  record(
    "server after the upstream faults",
    health.status === 200 && detail.status === 200,
    `health ${health.status}, a detail ${detail.status}`,
  );
}
