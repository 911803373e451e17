/** The password reset mail: plain text plus simple HTML, both with the one link. */
import type { MailMessage } from "@/lib/platform/mail/mod.ts";

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The reset link: the site's /reset-password page with the token, as GoTrue's token_hash. */
export function resetLink(siteUrl: string, token: string): string {
  return `${siteUrl}/reset-password?token_hash=${encodeURIComponent(token)}&type=recovery`;
}

/** The mail carrying `link` to `to`. */
export function resetMail(to: string, link: string, options: { siteUrl: string }): MailMessage {
  const site = new URL(options.siteUrl).host;
  const text = [
    "Hello,",
    "",
    `Someone asked to reset the password of your account on ${site}.`,
    "To choose a new password, open this link within one hour:",
    "",
    link,
    "",
    "The link works once. If you did not ask for this, ignore this mail:",
    "your password stays as it is.",
    "",
  ].join("\n");
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<p>Hello,</p>
<p>Someone asked to reset the password of your account on ${escapeHtml(site)}.
To choose a new password, open this link within one hour:</p>
<p><a href="${escapeHtml(link)}">Choose a new password</a></p>
<p>The link works once. If you did not ask for this, ignore this mail: your password stays as
it is.</p>
</body></html>
`;
  return { to, subject: `Reset your password on ${site}`, text, html };
}
