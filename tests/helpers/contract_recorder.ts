/**
 * Holds every /api answer an in-process test app gives to the OpenAPI document the moment it is
 * given (tests/helpers/app.ts wraps the app's fetch with `recordingFetch`): a mismatch fails the
 * very test that received it, whatever order the files run in and whichever of them run.
 */
import { AssertionError } from "node:assert";
import type { contractValidator } from "./contract_validator.ts";

/** One request and its answer, as the contract check reads it. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

let validator: Promise<ReturnType<typeof contractValidator>> | undefined;

// Built on the first /api answer of a test module, so files that never call /api pay nothing.
function documentValidator(): Promise<ReturnType<typeof contractValidator>> {
  return validator ??= (async () => {
    const { buildOpenApiDocument } = await import("@/lib/openapi/document.ts");
    const { contractValidator } = await import("./contract_validator.ts");
    return contractValidator(buildOpenApiDocument());
  })();
}

// The API answers; pages, static files and the GoTrue routes have no OpenAPI description.
function isRecorded(path: string): boolean {
  return (path === "/api" || path.startsWith("/api/")) && path !== "/api/docs";
}

type Fetch = (request: Request, ...rest: never[]) => Response | Promise<Response>;

/** Wraps an app's fetch so each /api answer is checked against the document before it is returned. */
export function recordingFetch<F extends Fetch>(fetch: F): F {
  const recording = async (request: Request, ...rest: never[]) => {
    const response = await fetch(request, ...rest);
    const path = new URL(request.url).pathname;
    if (!isRecorded(path)) return response;
    // The copy is read here, so the test still reads the original as it would have.
    // An event stream lasts as long as its night: its status and type are checked, not its body.
    const streamed = response.headers.get("content-type")?.startsWith("text/event-stream");
    const body = request.method === "HEAD" || streamed ? "" : await response.clone().text();
    const mismatches = (await documentValidator()).check({
      method: request.method,
      path,
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body,
    });
    if (mismatches.length > 0) {
      throw new AssertionError({
        message: `the answer does not match the OpenAPI document: ${mismatches.join("; ")}`,
      });
    }
    return response;
  };
  return recording as F;
}
