/**
 * The account page's password change. The current password is asked first and checked by
 * signing in with it again, on a client of its own (lib/web/supabase.ts `checkPassword`, so the
 * page's session keeps its second factor's level): `updateUser` cannot carry it, and
 * GoTrue's other way, a reauthentication nonce sent by mail, would make a password change wait on
 * a mail. A wrong current password counts as a failed sign-in, under the same limits. A new
 * password equal to the current one is refused before anything is sent (the server refuses it
 * too: 422 `same_password`). Then `updateUser({password})`: the built-in provider ends the
 * user's other sessions and keeps this one; what the change leaves working (personal tokens, the
 * media-server URL) is listed next, with one button to revoke it all (KeptAccess).
 */
import { useState } from "preact/hooks";
import { FormStatus } from "../components/FormStatus.tsx";
import { NewPasswordField } from "../components/NewPasswordField.tsx";
import { signInMessage } from "../lib/web/auth_messages.ts";
import { checkPassword, supabase } from "../lib/web/supabase.ts";
import { type FormMessage, useAction } from "../lib/web/use_action.ts";
import { KeptAccess } from "../components/KeptAccess.tsx";

const fault = (text: string): FormMessage => ({ error: true, text });

/** `email` feeds the strength meter, as on the server, and the re-authentication. */
export default function ChangePassword({ email }: { email: string }) {
  const [current, setCurrent] = useState("");
  const [password, setPassword] = useState("");
  const { busy, message, run } = useAction();
  const [changed, setChanged] = useState(false);

  async function change(): Promise<FormMessage> {
    if (!current) return fault("Enter your current password first.");
    if (password === current) {
      return fault("That is your current password. Choose a different one.");
    }
    const wrong = await checkPassword(email, current);
    if (wrong) {
      return fault(
        wrong.code === "invalid_credentials"
          ? "Your current password is not right."
          : signInMessage(wrong),
      );
    }
    const { error } = await supabase().auth.updateUser({ password });
    if (error?.code === "same_password") {
      return fault("That is your current password. Choose a different one.");
    }
    if (error) return fault(error.message || "The password could not be changed.");
    setCurrent("");
    setPassword("");
    setChanged(true);
    return {
      error: false,
      text: "Password changed. Your other devices are signed out; this one stays signed in.",
    };
  }

  function submit(event: Event) {
    event.preventDefault();
    // Never disabled (keyboard focus would fall to the page): a press while busy does nothing.
    if (!busy) return run(change);
  }

  return (
    <form class="form" method="post" action="/account" onSubmit={submit}>
      <FormStatus message={message} />
      <div class="field">
        <label for="current-password">Current password</label>
        <input
          id="current-password"
          type="password"
          name="currentPassword"
          autocomplete="current-password"
          required
          value={current}
          onInput={(e) => setCurrent(e.currentTarget.value)}
        />
      </div>
      <NewPasswordField
        id="new-password"
        label="New password"
        email={email}
        value={password}
        onInput={setPassword}
      />
      <button type="submit" class="button" aria-disabled={busy ? "true" : undefined}>
        {busy ? "Please wait…" : "Change password"}
      </button>
      {changed ? <KeptAccess /> : null}
    </form>
  );
}
