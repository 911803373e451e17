/**
 * Records every /api exchange the in-process test apps answer (tests/helpers/app.ts wraps the
 * app's fetch with `recordingFetch`), so tests/zz_api_contract_test.ts can hold each one to the
 * OpenAPI document after the whole suite ran. Test modules run in separate isolates of one
 * process, so the records go to a file named for the process.
 */

/** One recorded request and its answer. */
export interface Exchange {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

const OUTPUT = new URL("../output/contract/", import.meta.url);

/** The file this process's exchanges are appended to. */
export function recordFile(pid = Deno.pid): URL {
  return new URL(`exchanges-${pid}.jsonl`, OUTPUT);
}

let ready = false;

function append(exchange: Exchange): void {
  if (!ready) {
    Deno.mkdirSync(OUTPUT, { recursive: true });
    ready = true;
  }
  Deno.writeTextFileSync(recordFile(), JSON.stringify(exchange) + "\n", { append: true });
}

// The API answers; pages, static files and the GoTrue routes have no OpenAPI description.
function isRecorded(path: string): boolean {
  return (path === "/api" || path.startsWith("/api/")) && path !== "/api/docs";
}

type Fetch = (request: Request, ...rest: never[]) => Response | Promise<Response>;

/** Wraps an app's fetch so each /api answer is recorded with its body before it is returned. */
export function recordingFetch<F extends Fetch>(fetch: F): F {
  const recording = async (request: Request, ...rest: never[]) => {
    const response = await fetch(request, ...rest);
    const path = new URL(request.url).pathname;
    if (!isRecorded(path)) return response;
    // The copy is read here, so the test still reads the original as it would have.
    const body = request.method === "HEAD" ? "" : await response.clone().text();
    append({
      method: request.method,
      path,
      status: response.status,
      headers: Object.fromEntries(response.headers),
      body,
    });
    return response;
  };
  return recording as F;
}

/** The exchanges recorded by this process so far. */
export function readExchanges(pid = Deno.pid): Exchange[] {
  let text = "";
  try {
    text = Deno.readTextFileSync(recordFile(pid));
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line));
}
