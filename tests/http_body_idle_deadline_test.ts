/**
 * The body deadline is an idle deadline plus a total bound sized for the route (issue 24 item
 * 7): an upload that keeps arriving may take 12 idle deadlines (120 s by default), a body that
 * stops for one idle deadline is 408, and small bodies keep a total of one idle deadline.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers/app.ts";
import { createUser } from "./helpers/users.ts";

const encoder = new TextEncoder();
const IDLE_MS = 300;

function serve(
  app: { fetch(r: Request, info: Deno.ServeHandlerInfo): Response | Promise<Response> },
) {
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The answer's status line and body, read until the body's JSON ends or the socket closes. */
async function answerOf(conn: Deno.Conn): Promise<string> {
  const buffer = new Uint8Array(8192);
  let text = "";
  for (;;) {
    const n = await conn.read(buffer).catch(() => null);
    if (n === null) return text;
    text += new TextDecoder().decode(buffer.subarray(0, n));
    if (/\r\n\r\n[\s\S]*\}/.test(text)) return text;
  }
}

/**
 * Sends a chunked POST of `chunks` to `path`, one every `everyMs` (a negative count leaves the
 * body unfinished after the first chunk), and answers what the server said.
 */
async function trickle(
  port: number,
  request: { path: string; headers: Record<string, string>; chunks: string[]; everyMs: number },
  options: { stallAfterFirst?: boolean } = {},
): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  const head = Object.entries(request.headers).map(([k, v]) => `${k}: ${v}\r\n`).join("");
  await conn.write(encoder.encode(
    `POST ${request.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${head}Transfer-Encoding: chunked\r\n\r\n`,
  ));
  const answer = answerOf(conn);
  let answered = false;
  answer.then(() => answered = true);
  for (const [i, chunk] of request.chunks.entries()) {
    if (answered) break;
    const bytes = encoder.encode(chunk);
    await conn.write(encoder.encode(`${bytes.length.toString(16)}\r\n`)).catch(() => {});
    await conn.write(bytes).catch(() => {});
    await conn.write(encoder.encode("\r\n")).catch(() => {});
    if (options.stallAfterFirst && i === 0) break;
    await sleep(request.everyMs);
  }
  if (!options.stallAfterFirst && !answered) await conn.write(encoder.encode("0\r\n\r\n"));
  const text = await answer;
  conn.close();
  return text;
}

function csvChunks(n: number): string[] {
  return ["Date,Name,Year,Letterboxd URI\n"].concat(
    Array.from({ length: n }, (_, i) => `2024-01-01,Slow Film ${i},2001,u${i}\n`),
  );
}

Deno.test("an upload that keeps arriving for longer than the idle deadline is read whole (202)", async () => {
  await using t = await testApp({ env: { BODY_TIMEOUT_MS: String(IDLE_MS) } });
  const user = await createUser(t.deps);
  const server = serve(t.app);
  try {
    // 12 pieces 150 ms apart: 1.8 s in all, six idle deadlines, never idle for one.
    const answer = await trickle(server.addr.port, {
      path: "/api/import",
      headers: { authorization: user.headers.authorization, "content-type": "text/csv" },
      chunks: csvChunks(11),
      everyMs: 150,
    });
    assert.match(answer, /^HTTP\/1\.1 202/, answer);
    await t.services.historyImport.idle();
  } finally {
    await server.shutdown();
  }
});

Deno.test("an upload that stops for the idle deadline is 408 body_timeout", async () => {
  await using t = await testApp({ env: { BODY_TIMEOUT_MS: String(IDLE_MS) } });
  const user = await createUser(t.deps);
  const server = serve(t.app);
  try {
    const answer = await trickle(server.addr.port, {
      path: "/api/import",
      headers: { authorization: user.headers.authorization, "content-type": "text/csv" },
      chunks: csvChunks(3),
      everyMs: 0,
    }, { stallAfterFirst: true });
    assert.match(answer, /^HTTP\/1\.1 408/, answer);
    assert.match(answer, /"code":"body_timeout"/);
  } finally {
    await server.shutdown();
  }
});

Deno.test("an upload still arriving after its total bound (12 idle deadlines) is 408", async () => {
  await using t = await testApp({ env: { BODY_TIMEOUT_MS: String(IDLE_MS) } });
  const user = await createUser(t.deps);
  const server = serve(t.app);
  try {
    // A piece every 150 ms for 5.4 s: never idle, but past 12 x 300 ms = 3.6 s.
    const started = performance.now();
    const answer = await trickle(server.addr.port, {
      path: "/api/import",
      headers: { authorization: user.headers.authorization, "content-type": "text/csv" },
      chunks: csvChunks(35),
      everyMs: 150,
    });
    assert.match(answer, /^HTTP\/1\.1 408/, answer);
    assert.ok(performance.now() - started >= 12 * IDLE_MS, "not before the total bound");
  } finally {
    await server.shutdown();
  }
});

Deno.test("a small body keeps a total of one idle deadline: trickling it past that is 408", async () => {
  await using t = await testApp({ env: { BODY_TIMEOUT_MS: String(IDLE_MS) } });
  const server = serve(t.app);
  try {
    const answer = await trickle(server.addr.port, {
      path: "/auth/v1/token?grant_type=password",
      headers: { "content-type": "application/json" },
      chunks: ['{"em', 'ail":', '"a@b.', 'test"', ',"pa', "ssword", '":"x"}'],
      everyMs: 100,
    });
    assert.match(answer, /^HTTP\/1\.1 408/, answer);
  } finally {
    await server.shutdown();
  }
});
