/** `/forgot-password`: asks for a reset link by email (the ForgotPassword island). */
import { Title } from "../components/Title.tsx";
import ForgotPasswordIsland from "../islands/ForgotPassword.tsx";
import type { Handlers } from "../lib/http/app_env.ts";
import { island } from "../lib/http/island.tsx";

const ForgotPassword = island("ForgotPassword", ForgotPasswordIsland);

export const handler: Handlers = {
  GET: (c) => c.var.render(),
};

export default function ForgotPasswordPage() {
  return (
    <section class="auth-page">
      <Title>Forgot password</Title>
      <noscript>
        <p class="notice notice-error">Asking for a reset link needs JavaScript.</p>
      </noscript>
      <ForgotPassword />
    </section>
  );
}
