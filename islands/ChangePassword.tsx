/**
 * The account page's password change: supabase-js `updateUser({password})`. The built-in
 * provider ends the user's other sessions and keeps this one.
 */
import { useState } from "preact/hooks";
import { NewPasswordField } from "../components/NewPasswordField.tsx";
import { supabase } from "../lib/web/supabase.ts";

/** `email` feeds the strength meter, as on the server. */
export default function ChangePassword({ email }: { email: string }) {
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const { error } = await supabase().auth.updateUser({ password });
      if (error) {
        setMessage({ error: true, text: error.message || "The password could not be changed." });
        return;
      }
      setPassword("");
      setMessage({
        error: false,
        text: "Password changed. Your other devices are signed out; this one stays signed in.",
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form class="form" method="post" onSubmit={submit}>
      <p class={`status ${message?.error ? "status-error" : ""}`} role="status">
        {message?.text}
      </p>
      <NewPasswordField
        id="new-password"
        label="New password"
        email={email}
        value={password}
        onInput={setPassword}
      />
      <button type="submit" class="button" disabled={busy}>
        {busy ? "Please wait…" : "Change password"}
      </button>
    </form>
  );
}
