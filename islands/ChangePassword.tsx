/**
 * The account page's password change: supabase-js `updateUser({password})`. The built-in
 * provider ends the user's other sessions and keeps this one.
 */
import { useState } from "preact/hooks";
import { FormStatus } from "../components/FormStatus.tsx";
import { NewPasswordField } from "../components/NewPasswordField.tsx";
import { supabase } from "../lib/web/supabase.ts";
import { useAction } from "../lib/web/use_action.ts";

/** `email` feeds the strength meter, as on the server. */
export default function ChangePassword({ email }: { email: string }) {
  const [password, setPassword] = useState("");
  const { busy, message, run } = useAction();

  function submit(event: Event) {
    event.preventDefault();
    return run(async () => {
      const { error } = await supabase().auth.updateUser({ password });
      if (error) {
        return { error: true, text: error.message || "The password could not be changed." };
      }
      setPassword("");
      return {
        error: false,
        text: "Password changed. Your other devices are signed out; this one stays signed in.",
      };
    });
  }

  return (
    <form class="form" method="post" onSubmit={submit}>
      <FormStatus message={message} />
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
