/**
 * The daily digest (docs/availability.md): after a run of the availability job, one mail per
 * user with e-mail alerts on and alerts not yet mailed (now streaming, in theaters, on digital,
 * on disc; a channel's notice stays in the app), plain text and HTML, with
 * RFC 8058 one-click unsubscribe headers pointing at the signed `POST /unsubscribe?token=`.
 * Without SMTP_URL nothing is sent (and nothing is marked mailed).
 */
import type { AppDeps } from "@/lib/platform/deps.ts";
import { describeError } from "@/lib/core/log.ts";
import type { Mailer, MailMessage } from "@/lib/platform/mail/mod.ts";
import { alertWords } from "./alert_words.ts";
import { unsubscribeToken } from "./unsubscribe_token.ts";

/** One alert in a digest. */
interface DigestItem {
  id: string;
  kind: string;
  catalogId: number;
  title: string;
  provider: string | null;
  region: string | null;
  releaseDate: string | null;
}

// Alerts created since the run started (this run's), not mailed, of users who want mail.
const PENDING_SQL = `select n.user_id as "userId", u.email,
    jsonb_agg(jsonb_build_object('id', n.id, 'kind', n.kind, 'catalogId', n.catalog_id,
      'title', coalesce(m.title, ''), 'provider', n.provider_name, 'region', n.region,
      'releaseDate', to_char(n.release_date, 'YYYY-MM-DD'))
      order by n.created_at, n.id) as items
  from public.user_notifications n
  join public.user_services us on us.user_id = n.user_id and us.email_alerts
  join auth.users u on u.id = n.user_id and u.email is not null
  left join public.movies m on m.catalog_id = n.catalog_id
 where n.mailed_at is null and n.created_at >= $1 and n.kind <> 'channel_disabled'
 group by n.user_id, u.email`;

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The digest of `items` for one user. */
function digestMail(
  to: string,
  items: DigestItem[],
  links: { siteUrl: string; unsubscribeUrl: string },
): MailMessage {
  const words = (i: DigestItem) =>
    alertWords({
      kind: i.kind,
      region: i.region,
      providerName: i.provider,
      releaseDate: i.releaseDate,
    });
  const line = (i: DigestItem) => `${i.title || `Movie ${i.catalogId}`} ${words(i)}`;
  const streamingOnly = items.every((i) => i.kind === "now_streaming");
  const subject = items.length === 1
    ? line(items[0])
    : streamingOnly
    ? `${items.length} movies on your list are now streaming`
    : `${items.length} alerts from your My List`;
  const intro = streamingOnly ? "From your My List, now on your services:" : "From your My List:";
  const text = [
    intro,
    "",
    ...items.map((i) => `- ${line(i)}: ${links.siteUrl}/movies/${i.catalogId}`),
    "",
    `All alerts: ${links.siteUrl}/notifications`,
    `Stop these mails: ${links.unsubscribeUrl}`,
  ].join("\n");
  const html = `<p>${escape(intro)}</p><ul>${
    items.map((i) =>
      `<li><a href="${escape(`${links.siteUrl}/movies/${i.catalogId}`)}">${
        escape(i.title || `Movie ${i.catalogId}`)
      }</a> ${escape(words(i))}</li>`
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
