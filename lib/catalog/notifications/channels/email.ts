/**
 * The email channel is the digest (docs/alerts.md, "Email"): alerts reach it through the daily
 * digest mail, switched by `emailAlerts`, never through the queue. This sender is its test
 * button: one mail now to the account's address, when SMTP_URL is set.
 */
import type { ChannelSender } from "./types.ts";

const escape = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Sends the message as one mail to the account's address. */
export const sendEmail: ChannelSender = async (channel, message, deps) => {
  if (channel.type !== "email") throw new Error(`not an email channel: ${channel.type}`);
  if (!deps.mailer) {
    return { delivered: false, error: "mail is not set up on this server (SMTP_URL)" };
  }
  if (!channel.address) return { delivered: false, error: "the account has no email address" };
  const link = message.movie?.url ?? `${deps.config.siteUrl}/notifications`;
  try {
    await deps.mailer.send({
      to: channel.address,
      subject: message.title,
      text: `${message.body}\n\n${link}`,
      html: `<p>${escape(message.body)}</p><p><a href="${escape(link)}">${escape(link)}</a></p>`,
    });
  } catch {
    return { delivered: false, error: "the mail server refused the message" };
  }
  return { delivered: true };
};
