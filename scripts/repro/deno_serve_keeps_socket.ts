/**
 * Minimal reproduction for denoland/deno (docs/faults.md, "Deno keeps the socket"): `Deno.serve`
 * answers a request before its body has ended, yet never closes the connection, whatever the
 * handler does with the body. No dependencies, no permissions beyond the loopback:
 *
 *   deno run --allow-net scripts/repro/deno_serve_keeps_socket.ts [cancel|keep|throw|complete]
 *
 * cancel: the handler reads the first chunk, cancels the body and answers 408 `connection:
 * close`; keep: the same without the cancel; throw: the handler throws after the first chunk (the
 * runtime answers 500); complete: the control, the client sends the whole body first. Exit 1 when
 * the socket is still open 3 s after the answer, 0 when the server closed it.
 */
const mode = Deno.args[0] ?? "cancel";
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
  const reader = req.body!.getReader();
  if (mode === "complete") { while (!(await reader.read()).done); }
  else await reader.read(); // the first chunk; the client sends no more
  if (mode === "cancel") await reader.cancel();
  if (mode === "throw") throw new Error("body timeout");
  return new Response("timeout", { status: 408, headers: { connection: "close" } });
});
const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
const end = mode === "complete" ? "0\r\n\r\n" : "";
await conn.write(new TextEncoder().encode(
  `POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n${end}`,
));
const buffer = new Uint8Array(4096);
let status = "";
const report = (outcome: string) =>
  console.log(`deno ${Deno.version.deno} ${mode}: received "${status}", ${outcome}`);
setTimeout(() => (report("socket still open after 3 s"), Deno.exit(1)), 3000);
for (;;) {
  const n = await conn.read(buffer).catch(() => null);
  if (n === null) break;
  status ||= new TextDecoder().decode(buffer.subarray(0, n)).split("\r\n")[0];
}
report("socket closed by the server");
Deno.exit(0);
