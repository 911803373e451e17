/**
 * `/account/connections`: how other programs reach the user's data: personal access tokens
 * (made, shown once, revoked). docs/connections.md has the rules.
 */
import { SignInPrompt } from "../../components/SignInPrompt.tsx";
import { Title } from "../../components/Title.tsx";
import type { TokenRow } from "../../islands/PersonalTokens.tsx";
import type { Handlers, PageProps } from "../../lib/http/app_env.ts";
import { PersonalTokens } from "../../islands.gen.ts";

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    const tokens = user ? await c.var.services.personalTokens.list(user.id) : [];
    const response = await c.var.render(tokens);
    response.headers.set("cache-control", "private, no-store");
    return response;
  },
};

export default function Connections({ user, url, data }: PageProps<TokenRow[]>) {
  return (
    <section class="account-page">
      <Title>Connections</Title>
      <h1>Connections</h1>
      {user
        ? (
          <>
            <p>
              <a href="/account">Your account</a>{" "}
              · Let your own scripts and apps read or update your lists through the{" "}
              <a href="/api/docs">API</a>.
            </p>
            <noscript>
              <p class="notice notice-error">Making and revoking tokens needs JavaScript.</p>
            </noscript>
            <section class="auth" aria-labelledby="tokens-heading">
              <h2 id="tokens-heading">Personal access tokens</h2>
              <p class="hint">
                Send one as{" "}
                <code>Authorization: Bearer mvt_…</code>. A read-only token can look but not change
                anything; no token can manage tokens or your account. Revoke one you no longer use.
              </p>
              <PersonalTokens tokens={data} />
            </section>
          </>
        )
        : <SignInPrompt what="manage your connections" next={url.pathname} />}
    </section>
  );
}
