/**
 * `/unsubscribe?token=`: the digest mail's one-click unsubscribe (RFC 8058). `GET` shows a
 * confirm page (a link opened in a browser, or a mail scanner prefetching it, changes nothing);
 * `POST` (the mail client's one-click, or the page's button) turns e-mail alerts off. The signed
 * token names the user, so no sign-in is needed.
 */
import { Title } from "../components/Title.tsx";
import type { Ctx, Handlers, PageProps } from "../lib/http/app_env.ts";
import { disableAlerts } from "../lib/catalog/my_streaming/settings_store.ts";
import { verifyUnsubscribeToken } from "../lib/catalog/notifications/mod.ts";

interface Data {
  state: "confirm" | "done" | "invalid";
  token: string;
}

async function tokenUser(c: Ctx): Promise<{ token: string; userId: string | null }> {
  const token = c.req.query("token") ?? "";
  return { token, userId: await verifyUnsubscribeToken(c.var.deps.kv, token) };
}

export const handler: Handlers = {
  async GET(c) {
    const { token, userId } = await tokenUser(c);
    const data: Data = { state: userId ? "confirm" : "invalid", token };
    return c.var.render(data, { status: userId ? 200 : 400 });
  },
  async POST(c) {
    const { token, userId } = await tokenUser(c);
    if (!userId) return c.var.render({ state: "invalid", token } satisfies Data, { status: 400 });
    await disableAlerts(c.var.deps.store, userId);
    return c.var.render({ state: "done", token } satisfies Data);
  },
};

export default function UnsubscribePage({ data }: PageProps<Data>) {
  return (
    <section class="auth-page">
      <Title>Streaming alerts</Title>
      <h1>Streaming alerts by e-mail</h1>
      {data.state === "confirm" && (
        <form method="post" action={`/unsubscribe?token=${encodeURIComponent(data.token)}`}>
          <p>Stop the mails that tell you when a movie on your list starts streaming?</p>
          <button type="submit" class="button">Stop these mails</button>
        </form>
      )}
      {data.state === "done" && (
        <p class="notice" role="status">
          Done: you will get no more alert mails. You can turn them on again under My services on
          {" "}
          <a href="/account">your account</a>.
        </p>
      )}
      {data.state === "invalid" && (
        <p class="notice notice-error" role="alert">
          This unsubscribe link is not valid. Turn alert mails off under My services on{" "}
          <a href="/account">your account</a>.
        </p>
      )}
    </section>
  );
}
