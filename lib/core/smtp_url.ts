/** SMTP_URL and MAIL_FROM as lib/core/config.ts reads them (the checks only; config.ts reports). */

/** The SMTP server the service sends its mail through. */
export interface SmtpConfig {
  /** smtp:// (plain, upgraded with STARTTLS when offered) or smtps:// (TLS from the start). */
  url: string;
  host: string;
  port: number;
  secure: boolean;
}

/** Parses `smtp://` or `smtps://user:pass@host:port`; a string says what is wrong. */
function parseSmtpUrl(raw: string): SmtpConfig | string {
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    // Never echo the value: it holds the SMTP password.
    return "must be a URL like smtps://user:pass@host:465";
  }
  if ((parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:") || !parsed.hostname) {
    return "must be an smtp:// or smtps:// URL with a host";
  }
  const secure = parsed.protocol === "smtps:";
  return {
    url: raw,
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
  };
}

// A bare address or `Name <address>`; a line break would let the value add mail headers.
const FROM = /^[^\r\n<>@]*<[^\s<>@]+@[^\s<>@]+>$|^[^\s<>@]+@[^\s<>@]+$/;

/** Whether MAIL_FROM is an address or `Name <address>`. */
function isMailFrom(raw: string): boolean {
  return FROM.test(raw);
}

/** The mail settings, or which variable is wrong and why. */
export function readMailConfig(
  raw: { smtpUrl?: string; mailFrom?: string },
  options: { siteUrl: string },
): { smtp?: SmtpConfig; mailFrom: string } | { variable: string; error: string } {
  const smtp = raw.smtpUrl === undefined ? undefined : parseSmtpUrl(raw.smtpUrl);
  if (typeof smtp === "string") return { variable: "SMTP_URL", error: smtp };
  if (raw.mailFrom !== undefined && !isMailFrom(raw.mailFrom)) {
    return {
      variable: "MAIL_FROM",
      error: `must be an address or "Name <address>", got ${JSON.stringify(raw.mailFrom)}`,
    };
  }
  return { smtp, mailFrom: raw.mailFrom ?? `no-reply@${new URL(options.siteUrl).hostname}` };
}
