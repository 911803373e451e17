import assert from "node:assert/strict";
import { PendingWork } from "./helpers/settled.ts";

Deno.test("settled() waits for a fetched body still arriving, not only for the fetch's headers", async () => {
  const work = new PendingWork();
  let release = () => {};
  const arrived = new Promise<void>((resolve) => release = resolve);
  // The body's one chunk arrives only after several macrotasks, as on a busy machine.
  const slowBody: typeof fetch = () =>
    Promise.resolve(
      new Response(
        new ReadableStream({
          async start(controller) {
            await arrived;
            controller.enqueue(new TextEncoder().encode('{"runtime":103}'));
            controller.close();
          },
        }),
        { headers: { "content-type": "application/json" } },
      ),
    );
  let stored: number | undefined;
  const background = work.fetch(slowBody)("http://tmdb.test/movie/550")
    .then((response) => response.json())
    .then((body) => stored = body.runtime);
  const timer = setTimeout(release, 30);
  await work.settled();
  clearTimeout(timer);
  assert.equal(stored, 103);
  await background;
});
