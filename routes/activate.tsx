/**
 * `/activate`: where a player or app sends a person to approve its device code (the device flow
 * of the Trakt-compatible API, docs/trakt.md).
 */
import { SignInPrompt } from "@/components/SignInPrompt.tsx";
import { Title } from "@/components/Title.tsx";
import type { Handlers, PageProps } from "@/lib/http/app_env.ts";
import { ActivateDevice } from "@/islands.gen.ts";

export const handler: Handlers = {
  async GET(c) {
    const code = (c.req.query("code") ?? "").slice(0, 40);
    const response = await c.var.render({ code });
    response.headers.set("cache-control", "private, no-store");
    return response;
  },
};

export default function Activate({ user, url, data }: PageProps<{ code: string }>) {
  return (
    <section class="account-page">
      <Title>Connect an app</Title>
      <h1>Connect an app</h1>
      {user
        ? (
          <>
            <p>
              Type the code your player or app shows. It signs in to this site as it would to Trakt;
              you can sign it out any time on <a href="/account/connections">Connections</a>.
            </p>
            <noscript>
              <p class="notice notice-error">Approving an app needs JavaScript.</p>
            </noscript>
            <ActivateDevice code={data.code} />
          </>
        )
        : <SignInPrompt what="connect an app" next={url.pathname + url.search} />}
    </section>
  );
}
