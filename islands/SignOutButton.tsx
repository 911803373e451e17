/** The header's sign-out button: ends the supabase-js session (and its cookie), then goes home. */
import { useState } from "preact/hooks";
import { signOut } from "../lib/web/sign_out.ts";

/** No props: the session lives in the cookie. */
export default function SignOutButton() {
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      class="button button-small button-quiet"
      aria-disabled={busy ? "true" : undefined}
      onClick={async () => {
        // Never disabled, so focus stays on it until the page changes; a second press waits.
        if (busy) return;
        setBusy(true);
        // The cookie is gone either way (lib/web/supabase.ts); never leave the button stuck.
        await signOut().catch((error) => console.warn("Sign-out did not reach the server", error));
        location.assign("/");
      }}
    >
      {busy ? "Signing out…" : "Sign out"}
    </button>
  );
}
