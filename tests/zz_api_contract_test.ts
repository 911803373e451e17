/**
 * The contract's coverage: every /api route and method of the manifest is called by some test
 * file. Each answer itself is held to the OpenAPI document where it is received
 * (tests/helpers/contract_recorder.ts), so this file reads only the test sources: it passes or
 * fails the same whatever order the files run in, alone or with the whole suite.
 */
import assert from "node:assert/strict";
import { allowedMethods } from "../app.ts";
import { manifest } from "../routes.gen.ts";

const TESTS = new URL("./", import.meta.url);

/** Every test source (helpers included) by file name. */
function testSources(): Map<string, string> {
  const sources = new Map<string, string>();
  const walk = (dir: URL, prefix: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.isDirectory && entry.name !== "output" && entry.name !== "fixtures") {
        walk(new URL(`${entry.name}/`, dir), `${prefix}${entry.name}/`);
      } else if (entry.isFile && /\.tsx?$/.test(entry.name)) {
        sources.set(`${prefix}${entry.name}`, Deno.readTextFileSync(new URL(entry.name, dir)));
      }
    }
  };
  walk(TESTS, "");
  return sources;
}

/** The /api paths a source names in string or template literals, `${…}` read as one segment. */
function apiPaths(source: string): string[] {
  const paths: string[] = [];
  for (const match of source.matchAll(/["'`](\/api(?:\/[^"'`?#\s]*)?)/g)) {
    paths.push(match[1].replace(/\$\{[^}]*\}/g, "x"));
  }
  return paths;
}

function templateRegex(pattern: string): RegExp {
  const escaped = pattern.split(/:[A-Za-z0-9_]+/).map((part) =>
    part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
  );
  return new RegExp(`^${escaped.join("[^/]+")}$`);
}

Deno.test("the suite calls every /api route and method of the manifest", () => {
  const sources = [...testSources()].filter(([name]) => name.endsWith("_test.ts"));
  const missing: string[] = [];
  for (const { pattern, module } of manifest.routes) {
    if (!pattern.startsWith("/api/") || !module.handler) continue;
    const regex = templateRegex(pattern);
    const callers = sources.filter(([, source]) => apiPaths(source).some((p) => regex.test(p)));
    for (const method of allowedMethods(module)) {
      const called = callers.some(([, source]) =>
        method === "GET" || new RegExp(`["'\`]${method}["'\`]`).test(source)
      );
      if (!called) missing.push(`${method} ${pattern}`);
    }
  }
  assert.deepEqual(missing, [], `routes no test calls: ${missing.join(", ")}`);
});
