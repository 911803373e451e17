/**
 * A webhook secret's lookup (docs/connections.md): the median time for a receiver to find the
 * owner of a known secret against the time to refuse an unknown one (404), with 1,000 users'
 * connections stored; the target is a ratio near 1x (the same steps either way), measured in
 * the same run, alternating the two.
 */
import type { FakeClock } from "@/lib/core/clock.ts";
import { testApp } from "@/tests/helpers/app.ts";
import { createUser } from "@/tests/helpers/users.ts";

const USERS = 1000;
const ROUNDS = 400;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Prints both medians and the unknown/known ratio. */
export default async function bench(): Promise<void> {
  await using t = await testApp({ record: false });
  const connections = t.services.connections;
  const secrets: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const u = await createUser(t.deps);
    secrets.push((await connections.settings(u.id)).webhookUrl.split("/").pop()!);
  }
  // One client address; the clock's new minute each round keeps it under the guess limit.
  const CLIENT = { address: "192.0.2.10" };
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    // A new minute each round, so the rate limit never answers instead of the lookup.
    (t.clock as FakeClock).advance(60_000);
    let start = performance.now();
    await connections.open(secrets[i % USERS], CLIENT);
    known.push(performance.now() - start);
    const stranger = crypto.randomUUID().replaceAll("-", "").slice(0, 22);
    start = performance.now();
    await connections.open(stranger, CLIENT).then(
      () => {
        throw new Error("an unknown secret was accepted");
      },
      () => {},
    );
    unknown.push(performance.now() - start);
  }
  const k = median(known);
  const u = median(unknown);
  console.log(
    `secret lookup (${USERS} connections): known ${k.toFixed(3)} ms, unknown (404) ` +
      `${u.toFixed(3)} ms, unknown/known ${(u / k).toFixed(2)}x`,
  );
}
