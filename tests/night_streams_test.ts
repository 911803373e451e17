/**
 * The bounds of nights' event streams on one instance (docs/nights.md, "Events"), without HTTP:
 * the per-night and per-instance caps at their edge, a closed stream freeing its place, and a
 * reader that reads nothing let go after 64 KiB instead of queued for without end.
 */
import assert from "node:assert/strict";
import { FakeClock } from "@/lib/core/clock.ts";
import { Problem } from "@/lib/core/problem.ts";
import { localBus } from "@/lib/recommend/night/events.ts";
import { nightStreams } from "@/lib/recommend/night/streams.ts";

const limits = { perNight: 2, perInstance: 3, heartbeatMs: 25_000 };

function tooMany(error: unknown) {
  return error instanceof Problem && error.status === 429 && error.code === "too_many_streams";
}

Deno.test("a night's streams stop at the night's cap and the instance's, and a closed one frees its place", async () => {
  const clock = new FakeClock();
  const streams = nightStreams({ clock, bus: localBus() }, limits);
  const expiresAt = clock.now() + 3_600_000;
  const a1 = await streams.open("a", { expiresAt });
  await streams.open("a", { expiresAt });
  await assert.rejects(streams.open("a", { expiresAt }), tooMany);
  const b1 = await streams.open("b", { expiresAt });
  assert.equal(streams.openCount, 3);
  await assert.rejects(streams.open("c", { expiresAt }), tooMany);
  await b1.cancel();
  assert.equal(streams.openCount, 2);
  await streams.open("c", { expiresAt });
  await a1.cancel();
  await streams.open("a", { expiresAt });
  assert.equal(streams.openCount, 3);
});

Deno.test("a stream whose reader reads nothing is closed after 64 KiB of events, not queued for", async () => {
  const clock = new FakeClock();
  const bus = localBus();
  const streams = nightStreams({ clock, bus }, limits);
  const stream = await streams.open("a", { expiresAt: clock.now() + 3_600_000 });
  const title = "x".repeat(1_000);
  for (let i = 0; i < 200; i++) {
    await bus.publish({ night: "a", event: "vote", data: { catalogId: i + 1, title } });
  }
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(streams.openCount, 0, "let go");
  const text = await new Response(stream).text();
  const events = text.split("event: vote").length - 1;
  assert.ok(events > 50 && events < 200, `${events} events queued`);
});

Deno.test("closing every stream (a shutdown) ends them without an end event, so the phones reconnect", async () => {
  const clock = new FakeClock();
  const streams = nightStreams({ clock, bus: localBus() }, limits);
  const expiresAt = clock.now() + 3_600_000;
  const opened = [await streams.open("a", { expiresAt }), await streams.open("b", { expiresAt })];
  streams.closeAll();
  assert.equal(streams.openCount, 0);
  for (const stream of opened) {
    const text = await new Response(stream).text();
    assert.ok(!text.includes("event: end"), text);
  }
});
