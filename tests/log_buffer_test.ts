import assert from "node:assert/strict";
import { bufferedSink, createJsonLogger } from "../lib/core/log.ts";

// A file that records each write: one string per system call.
function recordingFile() {
  const writes: string[] = [];
  const decoder = new TextDecoder();
  return { writes, writeSync: (p: Uint8Array) => (writes.push(decoder.decode(p)), p.length) };
}

Deno.test("buffered log lines leave in one write, in order, once the size bound is reached", () => {
  const file = recordingFile();
  const timers: (() => void)[] = [];
  const sink = bufferedSink(file, { flushBytes: 30, schedule: (fn) => timers.push(fn) });
  sink.write("line one\n");
  sink.write("line two\n");
  assert.deepEqual(file.writes, [], "nothing is written on the request path");
  assert.equal(timers.length, 1, "one timer for the batch, not one per line");
  sink.write("line three\n");
  sink.write("line four\n");
  assert.deepEqual(file.writes, ["line one\nline two\nline three\nline four\n"]);
});

Deno.test("buffered log lines leave when the timer fires, and on flush", () => {
  const file = recordingFile();
  const timers: { fn: () => void; ms: number }[] = [];
  const sink = bufferedSink(file, { flushMs: 20, schedule: (fn, ms) => timers.push({ fn, ms }) });
  sink.write("a\n");
  sink.write("b\n");
  assert.equal(timers[0].ms, 20);
  timers[0].fn();
  assert.deepEqual(file.writes, ["a\nb\n"]);
  sink.write("c\n");
  assert.equal(timers.length, 2, "the next line starts the next batch's timer");
  sink.flush();
  assert.deepEqual(file.writes, ["a\nb\n", "c\n"]);
  timers[1].fn();
  sink.flush();
  assert.deepEqual(file.writes, ["a\nb\n", "c\n"], "an empty buffer writes nothing");
});

Deno.test("an error line is preceded by the buffered lines logged before it", () => {
  const order: string[] = [];
  const sink = bufferedSink({
    writeSync: (p) => (order.push(new TextDecoder().decode(p)), p.length),
  }, {
    schedule: () => {},
  });
  const log = createJsonLogger({ sink, errors: { write: (text) => order.push(text) } });
  log({ level: "info", msg: "first" });
  log({ level: "info", msg: "second" });
  log({ level: "error", msg: "boom" });
  const lines = order.join("").trim().split("\n").map((line) => JSON.parse(line).msg);
  assert.deepEqual(lines, ["first", "second", "boom"]);
});

// The production logger in a process of its own: every line reaches stdout in order, whether the
// process calls Deno.exit (as main.ts does after a SIGTERM drain) or simply runs out of work.
for (const ending of ["Deno.exit(0);", ""]) {
  Deno.test(`the production logger's lines all reach stdout at exit (${ending || "event loop ends"})`, async () => {
    const dir = await Deno.makeTempDir();
    try {
      const script = `${dir}/log_lines.ts`;
      const logModule = new URL("../lib/core/log.ts", import.meta.url).href;
      await Deno.writeTextFile(
        script,
        `import { jsonLogger } from ${JSON.stringify(logModule)};
for (let i = 0; i < 3000; i++) jsonLogger({ level: "info", n: i });
${ending}`,
      );
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--no-check", script],
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
      const lines = new TextDecoder().decode(out.stdout).trim().split("\n");
      assert.deepEqual(lines.map((line) => JSON.parse(line).n), [...Array(3000).keys()]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
