/**
 * "Forgot password?": supabase-js `resetPasswordForEmail` (this site's /auth/v1/recover, or
 * Supabase Auth). The answer is the same whether or not the email has an account, so the
 * page says so rather than "sent".
 */
import { useState } from "preact/hooks";
import { supabase } from "../lib/web/supabase.ts";

/** No props. */
export default function ForgotPassword() {
  const [email, setEmail] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const { error } = await supabase().auth.resetPasswordForEmail(email, {
        redirectTo: `${location.origin}/reset-password`,
      });
      setMessage(
        error
          ? {
            error: true,
            text: error.status === 429
              ? "Too many requests. Wait a while and try again."
              : error.message || "The request failed. Please try again.",
          }
          : {
            error: false,
            text: `If an account uses ${email}, a link to choose a new password is on its ` +
              "way. It works once, within an hour. Check your spam folder if it does not arrive.",
          },
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="auth">
      <h1>Forgot password?</h1>
      <p class="hint">Enter the email of your account and we will send you a link.</p>
      <form class="form" method="post" onSubmit={submit}>
        <p class={`status ${message?.error ? "status-error" : ""}`} role="status">
          {message?.text}
        </p>
        <div class="field">
          <label for="forgot-email">Email</label>
          <input
            id="forgot-email"
            type="email"
            name="email"
            autocomplete="email"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </div>
        <button type="submit" class="button" disabled={busy}>
          {busy ? "Please wait…" : "Send reset link"}
        </button>
      </form>
      <p class="auth-switch">
        Remembered it? <a href="/login">Sign in</a>
      </p>
    </div>
  );
}
