/**
 * `/forgot-password`: asks for a reset link by email (the ForgotPassword island). Without
 * JavaScript the form still works: its POST asks for the link the way `/auth/v1/recover` does,
 * then redirects (303) to `?sent=1`, which says a link is on its way if the address has an
 * account (the email never goes into the URL). With Supabase Auth the mail is Supabase's to
 * send, so there the POST says the page needs JavaScript.
 */
import { Title } from "../components/Title.tsx";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import { clientAddress } from "../lib/http/client_address.ts";
import { readCappedBody } from "../lib/http/read_body.ts";
import { ForgotPassword } from "../islands.gen.ts";

export const handler: Handlers = {
  GET: (c) => c.var.render(),
  async POST(c) {
    const builtin = c.var.services.auth.builtin;
    if (!builtin) return c.redirect("/forgot-password?sent=needs-js", 303);
    const bytes = await readCappedBody(c.req.raw);
    const email = new URLSearchParams(new TextDecoder().decode(bytes ?? new Uint8Array()))
      .get("email") ?? "";
    // The same answer whatever happened: recover itself never tells whether the email exists.
    await builtin.recover({ email: email.trim() }, { clientAddress: clientAddress(c) })
      .catch(() => {});
    return c.redirect("/forgot-password?sent=1", 303);
  },
};

export default function ForgotPasswordPage({ url }: PageProps) {
  const sent = url.searchParams.get("sent");
  return (
    <section class="auth-page">
      <Title>Forgot password</Title>
      {sent === "1"
        ? (
          <p class="notice notice-note" role="status">
            If an account uses that address, a link to choose a new password is on its way. It works
            for one hour.
          </p>
        )
        : sent
        ? <p class="notice notice-error">Asking for a reset link needs JavaScript here.</p>
        : null}
      <ForgotPassword />
    </section>
  );
}
