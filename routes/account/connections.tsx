/**
 * `/account/connections`: how other programs reach the user's data: the media-server webhooks
 * (URL, setup steps, settings, recent events) and personal access tokens (made, shown once,
 * revoked). docs/connections.md has the rules.
 */
import { SignInPrompt } from "@/components/SignInPrompt.tsx";
import { Title } from "@/components/Title.tsx";
import { WebhookSetup } from "@/components/WebhookSetup.tsx";
import type { ConnectionSettings, ReceivedEvent } from "@/lib/connections/webhooks/mod.ts";
import type { TokenRow } from "@/islands/PersonalTokens.tsx";
import type { Handlers, PageProps } from "@/lib/http/app_env.ts";
import { OtherApps, PersonalTokens, TraktApps, WebhookConnections } from "@/islands.gen.ts";
import type { SeerrState } from "@/islands/OtherApps.tsx";
import type { AuthorizationRow, OwnAppRow } from "@/islands/TraktApps.tsx";

interface Data {
  tokens: TokenRow[];
  settings: ConnectionSettings;
  events: ReceivedEvent[];
  seerr: SeerrState;
  trakt: { authorizations: AuthorizationRow[]; apps: OwnAppRow[]; baseUrl: string };
}

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    const services = c.var.services;
    const data = user
      ? {
        tokens: await services.personalTokens.list(user.id),
        settings: await services.connections.settings(user.id),
        events: await services.connections.events(user.id),
        seerr: await services.seerr.settings(user.id),
        trakt: {
          authorizations: await services.traktAuth.authorizations(user.id),
          apps: await services.traktAuth.listApps(user.id),
          baseUrl: `${c.var.deps.config.siteUrl}/trakt`,
        },
      }
      : null;
    const response = await c.var.render(data);
    response.headers.set("cache-control", "private, no-store");
    return response;
  },
};

export default function Connections({ user, url, data }: PageProps<Data | null>) {
  return (
    <section class="account-page">
      <Title>Connections</Title>
      <h1>Connections</h1>
      {user && data
        ? (
          <>
            <p>
              <a href="/account">Your account</a>{" "}
              · Let your media server fill your diary, and your own scripts and apps read or update
              your lists through the <a href="/api/docs">API</a>.
            </p>
            <noscript>
              <p class="notice notice-error">
                Copying the URL, making a new one, changing settings and making or revoking tokens
                need JavaScript.
              </p>
            </noscript>
            <section class="auth" aria-labelledby="webhooks-heading">
              <h2 id="webhooks-heading">Media servers</h2>
              <p class="hint">
                Finish a film in Plex, Jellyfin or Emby and it is in your diary, dated the day you
                watched it, and marked watched. Other events (episodes, films stopped midway) are
                ignored; Recent events says what happened to each.
              </p>
              <WebhookConnections settings={data.settings} events={data.events} />
              <WebhookSetup />
            </section>
            <section class="auth" aria-labelledby="other-apps-heading">
              <h2 id="other-apps-heading">Other apps</h2>
              <p class="hint">
                Let Radarr fetch what you save to My List, and send a film to your Seerr with a
                Request button.
              </p>
              <OtherApps feedUrl={data.settings.feedUrl} seerr={data.seerr} />
            </section>
            <section class="auth" aria-labelledby="trakt-heading">
              <h2 id="trakt-heading">Trakt apps</h2>
              <p class="hint">
                Players and sync tools made for Trakt work here: set their Trakt API address to{" "}
                <code>{data.trakt.baseUrl}</code> and approve them on{" "}
                <a href="/activate">/activate</a>.
              </p>
              <TraktApps {...data.trakt} />
            </section>
            <section class="auth" aria-labelledby="tokens-heading">
              <h2 id="tokens-heading">Personal access tokens</h2>
              <p class="hint">
                Send one as{" "}
                <code>Authorization: Bearer mvt_…</code>. A read-only token can look but not change
                anything; no token can manage tokens, webhooks or your account. Revoke one you no
                longer use.
              </p>
              <PersonalTokens tokens={data.tokens} />
            </section>
          </>
        )
        : <SignInPrompt what="manage your connections" next={url.pathname} />}
    </section>
  );
}
