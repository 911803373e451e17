/**
 * `/account`: the signed-in user's settings: change the password, sign out of other devices,
 * download their data, delete the account (behind a typed confirmation).
 */
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { Title } from "../components/Title.tsx";
import type { MyServicesProps } from "../islands/MyStreaming.tsx";
import type { AlertSettingsProps } from "../islands/AlertSettings.tsx";
import { Problem } from "../lib/core/problem.ts";
import type { Profile } from "../lib/library/lists/profile.ts";
import { ProviderSection } from "../components/ProviderSection.tsx";
import { type ProviderLink, providerLink } from "../lib/http/account_provider.ts";
import { regionNames } from "../lib/catalog/my_streaming/region_names.ts";
import { DELETE_CONFIRMATION } from "../lib/identity/auth/delete_account.ts";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import {
  AlertSettings,
  ChangePassword,
  DeleteAccount,
  ExportLinks,
  MyStreaming,
  ProfileSettings,
  SignOutOthers,
  TwoFactor,
} from "../islands.gen.ts";

/** What the signed-in page shows: My services, and the public profile (null before one is made). */
interface Data {
  services: MyServicesProps;
  profile: Profile | null;
  /** The alerts section: the kinds and the channels (docs/alerts.md). */
  alerts: AlertSettingsProps;
  /** The identity provider's section, when one is configured. */
  provider?: ProviderLink;
}

/** Where a mailed confirmation link lands (docs/identity.md, "Proven addresses"). */
const EMAIL_NOTICES: Record<string, { kind: "note" | "error"; text: string }> = {
  "email-confirmed": { kind: "note", text: "Your email address is confirmed. Thank you." },
  "email-link-invalid": {
    kind: "error",
    text: "That confirmation link has expired or was used already.",
  },
};

function EmailNotice({ url }: { url: URL }) {
  const notice = EMAIL_NOTICES[url.searchParams.get("notice") ?? ""];
  if (!notice) return null;
  return (
    <p class={`notice notice-${notice.kind}`} role={notice.kind === "error" ? "alert" : "status"}>
      {notice.text}
    </p>
  );
}

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    let data: Data | undefined;
    if (user) {
      const mine = await c.var.services.myStreaming.get(user.id);
      const services = {
        region: mine.region,
        chosen: mine.providers.map((p) => p.id),
        onlyMine: mine.onlyMine,
        emailAlerts: mine.emailAlerts,
        providers: await c.var.services.myStreaming.regionProviders(mine.region),
        regions: regionNames(),
      };
      // Read here, not by the island after load: a user without a profile yet would see the
      // island's GET answer 404 in the console on every visit.
      const profile = await c.var.services.profiles.get(user.id).catch((error) => {
        if (error instanceof Problem && error.code === "no_profile") return null;
        throw error;
      });
      const alerts = await c.var.services.alerts.read(user.id);
      data = { services, profile, alerts, provider: await providerLink(c, user.id) };
    }
    const response = await c.var.render(data);
    response.headers.set("cache-control", "private, no-store");
    return response;
  },
};

export default function Account({ user, url, data }: PageProps<Data | undefined>) {
  if (!user) {
    return (
      <section class="account-page">
        <Title>Your account</Title>
        <h1>Your account</h1>
        <EmailNotice url={url} />
        <SignInPrompt what="manage your account" next={url.pathname} />
      </section>
    );
  }
  return (
    <section class="account-page">
      <Title>Your account</Title>
      <h1>Your account</h1>
      {url.searchParams.get("notice") === "password-set"
        ? (
          <p class="notice notice-note" role="status">
            Your new password is set, and you are signed in with it.
          </p>
        )
        : null}
      <EmailNotice url={url} />
      <p>
        Signed in as <strong class="account-page-email">{user.email}</strong>.
      </p>
      <noscript>
        <p class="notice notice-error">Changing these settings needs JavaScript.</p>
      </noscript>
      {data && (
        <section class="auth" aria-labelledby="services-heading">
          <h2 id="services-heading">My services</h2>
          <p class="hint">
            Choose the streaming services you pay for: My List shows what you can watch on them, and
            you can be told when a saved movie starts streaming. Streaming data by JustWatch.
          </p>
          <MyStreaming {...data.services} />
        </section>
      )}
      {data && (
        <section class="auth" id="alerts" aria-labelledby="alerts-heading">
          <h2 id="alerts-heading">Alerts</h2>
          <p class="hint">
            Every alert is in the bell; here you choose which ones you want and where else they go:
            this device, ntfy, Discord, a webhook, Apprise or email.
          </p>
          <AlertSettings {...data.alerts} />
        </section>
      )}
      <section class="auth" aria-labelledby="password-heading">
        <h2 id="password-heading">Change password</h2>
        <ChangePassword email={user.email} />
      </section>
      <section class="auth" aria-labelledby="two-factor-heading">
        <h2 id="two-factor-heading">Two-factor codes</h2>
        <TwoFactor />
      </section>
      {data?.provider ? <ProviderSection link={data.provider} /> : null}
      <section class="auth" aria-labelledby="devices-heading">
        <h2 id="devices-heading">Other devices</h2>
        <p class="hint">
          Signed in somewhere you no longer use? End every session but this one.
        </p>
        <SignOutOthers />
      </section>
      <section class="auth" aria-labelledby="profile-heading">
        <h2 id="profile-heading">Public profile</h2>
        <p class="hint">
          Off until you turn it on. Shared lists show your display name and handle once you set
          them.
        </p>
        <ProfileSettings profile={data?.profile ?? null} />
      </section>
      <section class="auth" aria-labelledby="connections-heading">
        <h2 id="connections-heading">Connections</h2>
        <p class="hint">
          <a href="/account/connections">Personal access tokens</a> for your own scripts and apps.
        </p>
      </section>
      <section class="auth" aria-labelledby="data-heading">
        <h2 id="data-heading">Your data</h2>
        <p class="hint">
          Download your lists with ratings, dates and notes, or{" "}
          <a href="/import">bring a history from Letterboxd, Trakt or IMDb</a>.
        </p>
        <ExportLinks />
      </section>
      <section class="auth danger-zone" aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete account</h2>
        <p class="hint">
          Deletes your account, your watched list, My List, recommendations and imports, at once and
          for good. This cannot be undone: download your data first.
        </p>
        <DeleteAccount confirmation={DELETE_CONFIRMATION} />
      </section>
    </section>
  );
}
