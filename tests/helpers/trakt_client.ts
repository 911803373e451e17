/**
 * The real Trakt client (npm `trakt.tv` 8.2.0, unmodified) pointed at the test app: the app on a
 * real port, as a client reaches it, and the client signed in with a write personal access token
 * of `userId` (docs/trakt.md, "Sign-in": /trakt accepts personal tokens).
 */
import Trakt from "trakt.tv";
import type { TestApp } from "./app.ts";

/** A signed-in trakt.tv client of `userId`; disposing it stops its server. */
export async function signedInTraktClient(
  t: TestApp,
  userId: string,
): Promise<{ trakt: Trakt } & AsyncDisposable> {
  const { token } = await t.services.personalTokens.create(userId, {
    name: "trakt.tv client",
    scope: "write",
  });
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen() {} }, t.app.fetch);
  const trakt = new Trakt({
    client_id: "c".repeat(64),
    client_secret: "s".repeat(64),
    api_url: `http://127.0.0.1:${server.addr.port}/trakt`,
  });
  await trakt.import_token({
    access_token: token,
    expires: Date.now() + 86_400_000,
    refresh_token: "",
  });
  return {
    trakt,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}
