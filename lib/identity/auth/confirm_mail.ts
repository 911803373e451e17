/** The signup confirmation mail: plain text plus simple HTML, both with the one link. */
import type { MailMessage } from "@/lib/platform/mail/mod.ts";

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The confirmation link, in GoTrue's form (its "confirm signup" template): /auth/v1/verify with
 * the token, `type=signup`, and the page to land on.
 */
export function confirmationLink(siteUrl: string, token: string): string {
  const params = new URLSearchParams({
    token_hash: token,
    type: "signup",
    redirect_to: `${siteUrl}/account`,
  });
  return `${siteUrl}/auth/v1/verify?${params}`;
}

/** The mail carrying `link` to `to`. */
export function confirmMail(to: string, link: string, options: { siteUrl: string }): MailMessage {
  const site = new URL(options.siteUrl).host;
  const text = [
    "Hello,",
    "",
    `An account on ${site} was created with this email address.`,
    "If it was you, confirm the address by opening this link within 24 hours:",
    "",
    link,
    "",
    "If you did not create it, ignore this mail: the address stays unconfirmed, and",
    "nothing is joined to it.",
    "",
  ].join("\n");
  const html = `<!doctype html>
<html><body style="font-family: sans-serif; line-height: 1.5">
<p>Hello,</p>
<p>An account on ${escapeHtml(site)} was created with this email address.
If it was you, confirm the address by opening this link within 24 hours:</p>
<p><a href="${escapeHtml(link)}">Confirm my email address</a></p>
<p>If you did not create it, ignore this mail: the address stays unconfirmed, and nothing is
joined to it.</p>
</body></html>
`;
  return { to, subject: `Confirm your email address on ${site}`, text, html };
}
