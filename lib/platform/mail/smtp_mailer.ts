/**
 * The SMTP mailer (nodemailer), used when SMTP_URL is set. nodemailer is imported on the first
 * message, so a server that never mails never loads it.
 */
import type { Transporter } from "nodemailer";
import type { SmtpConfig } from "@/lib/core/smtp_url.ts";

/** One message: plain text plus a simple HTML part. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra header lines (e.g. List-Unsubscribe of a digest). */
  headers?: Record<string, string>;
}

/** Sends mail; rejects when the server refuses it or cannot be reached. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

const TIMEOUT_MS = 10_000;

function credentials(url: string): { user: string; pass: string } | undefined {
  const { username, password } = new URL(url);
  if (!username) return undefined;
  return { user: decodeURIComponent(username), pass: decodeURIComponent(password) };
}

/** An SMTP mailer for `smtp` sending as `from`; a connection per message (no pool to close). */
export function smtpMailer(smtp: SmtpConfig, options: { from: string }): Mailer {
  let transport: Promise<Transporter> | undefined;
  const open = () =>
    transport ??= import("nodemailer").then((nodemailer) =>
      nodemailer.default.createTransport({
        host: smtp.host,
        port: smtp.port,
        secure: smtp.secure,
        auth: credentials(smtp.url),
        connectionTimeout: TIMEOUT_MS,
        greetingTimeout: TIMEOUT_MS,
        socketTimeout: TIMEOUT_MS,
      })
    );
  return {
    async send(message) {
      await (await open()).sendMail({ from: options.from, ...message });
    },
  };
}
