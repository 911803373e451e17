/**
 * `/notifications`: my alerts, newest first (at most 100), the unread ones marked "New", each
 * kind in plain words (now streaming, in theaters, on digital, on disc, a channel turned off).
 * Opening the page reads them: they are marked read once it has rendered them, so the bell
 * clears, as notification lists elsewhere do.
 */
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { Title } from "../components/Title.tsx";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import {
  alertWords,
  listNotifications,
  markRead,
  type Notification,
  type NotificationList,
} from "../lib/catalog/notifications/mod.ts";

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    const { store, clock, config } = c.var.deps;
    const list = await listNotifications(store, user.id, {
      unreadOnly: false,
      imageBaseUrl: config.tmdb.imageBaseUrl,
    });
    if (list.unread > 0) {
      await markRead(store, user.id, { which: { all: true }, now: clock.now() });
      c.set("unread", 0);
    }
    return c.var.render(list);
  },
};

const date = (iso: string) =>
  new Date(iso).toLocaleDateString("en", { day: "numeric", month: "short", timeZone: "UTC" });

/** One notification's sentence: the film's title as a link and what happened, or the notice. */
function Sentence({ n }: { n: Notification }) {
  if (n.kind === "channel_disabled") {
    return (
      <>
        Your alert channel “{n.channel}” was turned off after 10 failed deliveries in a row. Check
        it in <a href="/account">your account</a>.
      </>
    );
  }
  const words = n.kind === "now_streaming"
    ? `${
      alertWords({ kind: n.kind, region: n.region, providerName: n.provider.name })
    } (${n.region})`
    : alertWords({ kind: n.kind, region: n.region, releaseDate: n.releaseDate });
  return (
    <>
      <a href={`/movies/${n.catalogId}`}>{n.title || `Movie ${n.catalogId}`}</a> {words}
    </>
  );
}

export default function Notifications({ data, url }: PageProps<NotificationList | undefined>) {
  return (
    <section aria-labelledby="notifications-heading">
      <Title>Notifications</Title>
      <h1 id="notifications-heading">Notifications</h1>
      {!data ? <SignInPrompt what="see your notifications" next={url.pathname} /> : (
        <>
          <p class="lead">
            When a movie on My List starts streaming on one of{" "}
            <a href="/account#services-heading">your services</a>, or comes out in theaters, on
            digital or on disc in your region, it shows up here.
          </p>
          {data.notifications.length === 0
            ? <p class="empty-state">Nothing yet.</p>
            : (
              <ul class="notification-list">
                {data.notifications.map((n) => (
                  <li key={n.id} class={n.readAt ? "notification" : "notification is-new"}>
                    {n.kind === "now_streaming" && n.provider.logo
                      ? <img src={n.provider.logo} alt="" width={32} height={32} />
                      : null}
                    <span>
                      {n.readAt ? null : <strong class="new-badge">New</strong>} <Sentence n={n} />
                      {" "}
                      <time dateTime={n.createdAt}>{date(n.createdAt)}</time>
                    </span>
                  </li>
                ))}
              </ul>
            )}
          <p class="hint">Streaming data by JustWatch.</p>
        </>
      )}
    </section>
  );
}
