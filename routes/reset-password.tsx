/**
 * `/reset-password`: the page the reset mail links to, with the single-use token in its
 * address. Never cached, and no Referer leaves it, so the token stays between the mail and
 * this site.
 */
import { Title } from "../components/Title.tsx";
import type { Handlers } from "../lib/http/app_env.ts";
import { ResetPassword } from "../islands.gen.ts";

export const handler: Handlers = {
  async GET(c) {
    const response = await c.var.render();
    response.headers.set("cache-control", "no-store");
    response.headers.set("referrer-policy", "no-referrer");
    return response;
  },
};

export default function ResetPasswordPage() {
  return (
    <section class="auth-page">
      <Title>Choose a new password</Title>
      <noscript>
        <p class="notice notice-error">Setting a new password needs JavaScript.</p>
      </noscript>
      <ResetPassword />
    </section>
  );
}
