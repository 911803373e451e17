/**
 * `GET /trakt/oauth/authorize?response_type=code&client_id=&redirect_uri=&state=`: the consent
 * page of the code flow, for the signed-in user's own apps (docs/trakt.md, "Sign-in"). A request
 * that does not fit renders the page with why, never a redirect to an unregistered URI.
 */
import { SignInPrompt } from "@/components/SignInPrompt.tsx";
import { Title } from "@/components/Title.tsx";
import { Problem } from "@/lib/core/problem.ts";
import type { Handlers, PageProps } from "@/lib/http/app_env.ts";
import type { ConsentRequest } from "@/islands/TraktConsent.tsx";
import { TraktConsent } from "@/islands.gen.ts";

type Data = { request: ConsentRequest } | { error: string } | null;

export const handler: Handlers = {
  async GET(c) {
    const user = c.var.user;
    let data: Data = null;
    let status = 200;
    if (user) {
      const clientId = c.req.query("client_id") ?? "";
      const redirectUri = c.req.query("redirect_uri") ?? "";
      const state = c.req.query("state");
      try {
        if (c.req.query("response_type") !== "code") {
          throw new Problem(
            400,
            "unsupported_response_type",
            "Only response_type=code is offered.",
          );
        }
        const app = await c.var.services.traktAuth.consentApp(user.id, { clientId, redirectUri });
        data = { request: { appName: app.name, clientId, redirectUri, state } };
      } catch (error) {
        if (!(error instanceof Problem) || error.status >= 500) throw error;
        data = { error: error.message };
        status = error.status;
      }
    }
    const response = await c.var.render(data, { status });
    response.headers.set("cache-control", "private, no-store");
    return response;
  },
};

export default function Authorize({ user, url, data }: PageProps<Data>) {
  return (
    <section class="account-page">
      <Title>Sign in an app</Title>
      <h1>Sign in an app</h1>
      {!user
        ? <SignInPrompt what="sign in your app" next={url.pathname + url.search} />
        : data && "request" in data
        ? <TraktConsent request={data.request} />
        : <p class="notice notice-error">{data?.error}</p>}
    </section>
  );
}
