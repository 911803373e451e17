/**
 * Deleting an account while its user writes (docs/identity.md): on PostgreSQL the deletion
 * takes the user's list lock first, retries a deadlock once, and every write that arrives too
 * late answers 401, never a 500; the account and all its rows are gone afterwards.
 */
import assert from "node:assert/strict";
import { deleteAccount } from "../lib/identity/auth/delete_account.ts";
import { type TestApp, testApp } from "./helpers/app.ts";
import { TEST_DATABASE_URL } from "./helpers/store.ts";

const JSON_TYPE = { "content-type": "application/json" };
const PASSWORD = "popcorn-matinee-42";

async function signUpAndIn(t: TestApp) {
  const email = `racer-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const created = await t.request("/api/auth/signup", {
    method: "POST",
    headers: JSON_TYPE,
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  assert.equal(created.status, 201);
  const { user } = await created.json();
  const session = await (await t.request("/auth/v1/token?grant_type=password", {
    method: "POST",
    headers: JSON_TYPE,
    body: JSON.stringify({ email, password: PASSWORD }),
  })).json();
  return { id: String(user.id), headers: { authorization: `Bearer ${session.access_token}` } };
}

/** One user's writes, over and over until `stop` says so; the statuses they got. */
async function writeUntil(
  t: TestApp,
  headers: Record<string, string>,
  stop: () => boolean,
  seed: number,
): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; !stop() || i < 4; i++) {
    const id = 100 + ((seed * 7 + i) % 40);
    const [path, method, body] = [
      ["/api/watched", "POST", { catalogId: id, note: "racing" }],
      ["/api/mylist", "POST", { catalogId: id + 1000 }],
      ["/api/recommend/dismissed", "POST", { catalogId: id + 2000 }],
      ["/api/mylist", "DELETE", { catalogId: id + 1000 }],
    ][i % 4] as [string, string, unknown];
    const res = await t.request(path, {
      method,
      headers: { ...headers, ...JSON_TYPE },
      body: JSON.stringify(body),
    });
    statuses.push(res.status);
    await res.body?.cancel();
    if (i > 200) break;
  }
  return statuses;
}

Deno.test({
  name:
    "[postgres] deleting an account while its user writes: 204 every time, late writes 401, never 500",
  ignore: !TEST_DATABASE_URL,
  async fn() {
    await using t = await testApp({ engine: "postgres" });
    for (let round = 0; round < 10; round++) {
      const user = await signUpAndIn(t);
      let deleted = false;
      const writers = Array.from(
        { length: 6 },
        (_, n) => writeUntil(t, user.headers, () => deleted, round * 10 + n),
      );
      // Let the writes get going, then delete in the middle of them.
      await new Promise<void>((resolve) => queueMicrotask(resolve));
      const res = await t.request("/api/account", {
        method: "DELETE",
        headers: { ...user.headers, ...JSON_TYPE },
        body: JSON.stringify({ confirm: "delete my account" }),
      });
      const deleteStatus = res.status;
      const deleteBody = await res.text();
      deleted = true;
      const statuses = (await Promise.all(writers)).flat();
      assert.equal(deleteStatus, 204, `round ${round}: ${deleteBody}`);
      const unexpected = statuses.filter((s) => s !== 200 && s !== 401);
      assert.deepEqual(unexpected, [], `round ${round}: ${JSON.stringify(statuses)}`);
      assert.ok(statuses.includes(401), `round ${round}: the writes after the deletion are 401`);
      const [left] = await t.store.query<{ n: number }>(
        `select (select count(*) from auth.users where id = $1)
              + (select count(*) from public.user_watched_movies where user_id = $1)
              + (select count(*) from public.user_my_list where user_id = $1)
              + (select count(*) from public.user_dismissed_movies where user_id = $1)::int as n`,
        [user.id],
      );
      assert.equal(Number(left.n), 0, `round ${round}: rows left behind`);
    }
  },
});

Deno.test("a deletion that PostgreSQL ends as a deadlock is tried once more, and only once", async () => {
  await using t = await testApp();
  const deadlock = Object.assign(new Error("deadlock detected"), { code: "40P01" });
  for (const failures of [1, 2]) {
    const user = await signUpAndIn(t);
    let left = failures;
    const store = new Proxy(t.deps.store, {
      get(target, key, receiver) {
        if (key !== "transaction") return Reflect.get(target, key, receiver);
        return (fn: Parameters<typeof target.transaction>[0]) =>
          left-- > 0 ? Promise.reject(deadlock) : target.transaction(fn);
      },
    });
    const attempt = deleteAccount({ ...t.deps, store }, user.id);
    if (failures === 1) await attempt;
    else await assert.rejects(attempt, /deadlock detected/);
    const [row] = await t.store.query<{ n: number }>(
      "select count(*)::int as n from auth.users where id = $1",
      [user.id],
    );
    assert.equal(row.n, failures === 1 ? 0 : 1, `${failures} deadlocks`);
  }
});
