/**
 * The daily digest (docs/availability.md): after a run of the availability job, one mail per
 * user with e-mail alerts on and notifications not yet mailed, plain text and HTML, with
 * RFC 8058 one-click unsubscribe headers pointing at the signed `POST /unsubscribe?token=`.
 * Without SMTP_URL nothing is sent (and nothing is marked mailed).
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { describeError } from "@/lib/core/log.ts";
import type { Mailer, MailMessage } from "@/lib/platform/mail/mod.ts";
import { unsubscribeToken } from "./unsubscribe_token.ts";

/** One alert in a digest. */
interface DigestItem {
  id: string;
  catalogId: number;
  title: string;
  provider: string;
}

// Alerts created since the run started (this run's), not mailed, of users who want mail.
const PENDING_SQL = `select n.user_id as "userId", u.email,
    jsonb_agg(jsonb_build_object('id', n.id, 'catalogId', n.catalog_id,
      'title', coalesce(m.title, ''), 'provider', n.provider_name)
      order by n.created_at, n.id) as items
  from public.user_notifications n
  join public.user_services us on us.user_id = n.user_id and us.email_alerts
  join auth.users u on u.id = n.user_id and u.email is not null
  left join public.movies m on m.catalog_id = n.catalog_id
 where n.mailed_at is null and n.created_at >= $1
 group by n.user_id, u.email`;

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The digest of `items` for one user. */
function digestMail(
  to: string,
  items: DigestItem[],
  links: { siteUrl: string; unsubscribeUrl: string },
): MailMessage {
  const line = (i: DigestItem) =>
    `${i.title || `Movie ${i.catalogId}`} is now streaming on ${
      i.provider || "one of your services"
    }`;
  const subject = items.length === 1
    ? line(items[0])
    : `${items.length} movies on your list are now streaming`;
  const text = [
    "From your My List, now on your services:",
    "",
    ...items.map((i) => `- ${line(i)}: ${links.siteUrl}/movies/${i.catalogId}`),
    "",
    `All alerts: ${links.siteUrl}/notifications`,
    `Stop these mails: ${links.unsubscribeUrl}`,
  ].join("\n");
  const html = `<p>From your My List, now on your services:</p><ul>${
    items.map((i) =>
      `<li><a href="${escape(`${links.siteUrl}/movies/${i.catalogId}`)}">${
        escape(i.title || `Movie ${i.catalogId}`)
      }</a> is now streaming on ${escape(i.provider || "one of your services")}</li>`
    ).join("")
  }</ul><p><a href="${escape(`${links.siteUrl}/notifications`)}">All alerts</a> · <a href="${
    escape(links.unsubscribeUrl)
  }">Stop these mails</a></p>`;
  return {
    to,
    subject,
    text,
    html,
    headers: {
      "List-Unsubscribe": `<${links.unsubscribeUrl}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}

/** Sends the digests of a run started at `since`; returns how many mails went out. */
export async function sendDigests(
  deps: AppDeps,
  options: { mailer?: Mailer; since: number },
): Promise<number> {
  const { mailer } = options;
  if (!mailer) return 0;
  const { store, kv, config, clock, log } = deps;
  const pending = await store.query<{ userId: string; email: string; items: unknown }>(
    PENDING_SQL,
    [new Date(options.since).toISOString()],
  );
  let sent = 0;
  for (const p of pending) {
    const items = (typeof p.items === "string" ? JSON.parse(p.items) : p.items) as DigestItem[];
    const token = await unsubscribeToken(kv, p.userId);
    const unsubscribeUrl = `${config.siteUrl}/unsubscribe?token=${encodeURIComponent(token)}`;
    try {
      await mailer.send(digestMail(p.email, items, { siteUrl: config.siteUrl, unsubscribeUrl }));
    } catch (error) {
      // One failing address never stops the others; its alerts stay unmailed for the next run.
      log({
        level: "warn",
        msg: "digest mail failed",
        userId: p.userId,
        error: describeError(error),
      });
      continue;
    }
    sent++;
    await store.query(
      `update public.user_notifications set mailed_at = $2 where id = any ($1::uuid[])`,
      [items.map((i) => i.id), new Date(clock.now()).toISOString()],
    );
  }
  return sent;
}
