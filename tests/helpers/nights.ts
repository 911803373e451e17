/** Movie nights in tests: requests as a member, and a night made and joined by several users. */
import type { TestApp } from "./app.ts";
import type { TestUser } from "./users.ts";
import { issueAccessToken } from "./tokens.ts";

/** Sends `body` as JSON to `path` with `user`'s token. */
export async function send(
  t: Pick<TestApp, "request">,
  user: TestUser,
  path: string,
  options: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> & { code?: string } }> {
  const res = await t.request(path, {
    method: options.method ?? "POST",
    headers: {
      ...user.headers,
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

/** A night made by `creator` and joined by `others`: its id and join token. */
export async function nightOf(
  t: Pick<TestApp, "request">,
  creator: TestUser,
  others: TestUser[],
  body: Record<string, unknown> = {},
): Promise<{ id: string; token: string; joinUrl: string }> {
  const made = await send(t, creator, "/api/nights", { body });
  if (made.status !== 201) throw new Error(`night not made: ${JSON.stringify(made.body)}`);
  const joinUrl = String(made.body.joinUrl);
  const id = String(made.body.id);
  const token = new URL(joinUrl).searchParams.get("token")!;
  for (const u of others) {
    const joined = await send(t, u, `/api/nights/${id}/join`, { body: { token } });
    if (joined.status !== 200) throw new Error(`not joined: ${JSON.stringify(joined.body)}`);
  }
  return { id, token, joinUrl };
}

/** `users` with fresh access tokens: a test that moves the clock a day outlives their first. */
export async function freshTokens(t: Pick<TestApp, "deps">, users: TestUser[]): Promise<void> {
  for (const u of users) {
    const { token } = await issueAccessToken(t.deps, { id: u.id, email: u.email });
    u.token = token;
    u.headers = { authorization: `Bearer ${token}` };
  }
}
