/** Test users: a row in auth.users and a real access token of the built-in provider. */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { issueAccessToken } from "./tokens.ts";

/** A user of a test, with the headers that authenticate it. */
export interface TestUser {
  id: string;
  email: string;
  token: string;
  headers: Record<string, string>;
}

/** Creates a user directly in auth.users and signs an access token for it. */
export async function createUser(
  deps: AppDeps,
  options: { email?: string } = {},
): Promise<TestUser> {
  const id = crypto.randomUUID();
  const email = options.email ?? `user-${id.slice(0, 8)}@example.test`;
  await deps.store.query(
    `insert into auth.users (id, aud, role, email, created_at, updated_at)
     values ($1, 'authenticated', 'authenticated', $2, now(), now())`,
    [id, email],
  );
  const { token } = await issueAccessToken(deps, { id, email });
  return { id, email, token, headers: { authorization: `Bearer ${token}` } };
}
