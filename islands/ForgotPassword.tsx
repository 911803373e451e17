/**
 * "Forgot password?": supabase-js `resetPasswordForEmail` (this site's /auth/v1/recover, or
 * Supabase Auth). The answer is the same whether or not the email has an account, so the
 * page says so rather than "sent".
 */
import { useState } from "preact/hooks";
import { EmailField } from "../components/EmailField.tsx";
import { FormStatus } from "../components/FormStatus.tsx";
import { supabase } from "../lib/web/supabase.ts";
import { useAction } from "../lib/web/use_action.ts";

/** No props. */
export default function ForgotPassword() {
  const [email, setEmail] = useState("");
  const { busy, message, run } = useAction();

  function submit(event: Event) {
    event.preventDefault();
    // Never disabled (keyboard focus would fall to the page): a press while busy does nothing.
    if (busy) return;
    return run(async () => {
      const { error } = await supabase().auth.resetPasswordForEmail(email, {
        redirectTo: `${location.origin}/reset-password`,
      });
      if (!error) {
        return {
          error: false,
          text: `If an account uses ${email}, a link to choose a new password is on its ` +
            "way. It works once, within an hour. Check your spam folder if it does not arrive.",
        };
      }
      return {
        error: true,
        text: error.status === 429
          ? "Too many requests. Wait a while and try again."
          : error.message || "The request failed. Please try again.",
      };
    });
  }

  return (
    <div class="auth">
      <h1>Forgot password?</h1>
      <p class="hint">Enter the email of your account and we will send you a link.</p>
      <form class="form" method="post" onSubmit={submit}>
        <FormStatus message={message} />
        <EmailField id="forgot-email" value={email} onInput={setEmail} />
        <button type="submit" class="button" aria-disabled={busy ? "true" : undefined}>
          {busy ? "Please wait…" : "Send reset link"}
        </button>
      </form>
      <p class="auth-switch">
        Remembered it? <a href="/login">Sign in</a>
      </p>
    </div>
  );
}
