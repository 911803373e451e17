/**
 * The sign-in's code step: a user with two-factor codes on, signed in with a password (or the
 * identity provider), enters the authenticator app's code to raise the session to aal2, then
 * goes on to `next`. Shown by AuthForm and the OIDC return, and by /login for a session that
 * still owes its code. A lost phone's owner switches the field to one of the backup codes given
 * at enrolment (docs/identity.md, "Backup codes"), sent by the same verify call; "Sign out"
 * leaves it for another account.
 */
import { useState } from "preact/hooks";
import { CodeField } from "../components/CodeField.tsx";
import { FormStatus } from "../components/FormStatus.tsx";
import { codeMessage } from "../lib/web/auth_messages.ts";
import { supabase } from "../lib/web/supabase.ts";
import { signOut } from "../lib/web/sign_out.ts";
import { useAction } from "../lib/web/use_action.ts";

/** Where to go once the code is right. */
export default function CodeStep({ next }: { next: string }) {
  const [code, setCode] = useState("");
  const [backup, setBackup] = useState(false);
  const { busy, message, run } = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    return run(async () => {
      const auth = supabase().auth;
      const { data } = await auth.mfa.listFactors();
      const factor = data?.totp[0];
      if (!factor) return { error: true, text: "No two-factor app is set up for this account." };
      const { error } = await auth.mfa.challengeAndVerify({
        factorId: factor.id,
        code: code.trim(),
      });
      if (error) return { error: true, text: codeMessage(error.code, error.message) };
      location.assign(next);
    });
  };

  return (
    <form class="form code-step" method="post" onSubmit={submit}>
      <h2>Two-factor code</h2>
      <FormStatus message={message} />
      <CodeField id="signin-code" value={code} onInput={setCode} backup={backup} />
      <button type="submit" class="button" aria-disabled={busy ? "true" : undefined}>
        {busy ? "Please wait…" : "Verify"}
      </button>
      <p class="auth-switch">
        <button
          type="button"
          class="link-button"
          onClick={() => {
            setBackup(!backup);
            setCode("");
          }}
        >
          {backup ? "Use the authenticator app's code" : "Lost your phone? Use a backup code"}
        </button>
      </p>
      <p class="auth-switch">
        Not you, or no code at hand?{" "}
        <button
          type="button"
          class="link-button"
          onClick={async () => {
            await signOut({ scope: "local" }).catch(() => {});
            location.reload();
          }}
        >
          Sign out
        </button>
      </p>
    </form>
  );
}
