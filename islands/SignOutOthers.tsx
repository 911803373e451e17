/** "Sign out of other devices": supabase-js `signOut({scope: "others"})`; this one stays. */
import { useState } from "preact/hooks";
import { supabase } from "../lib/web/supabase.ts";

/** No props: the session lives in the cookie. */
export default function SignOutOthers() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  return (
    <div>
      <p class={`status ${message?.error ? "status-error" : ""}`} role="status">
        {message?.text}
      </p>
      <button
        type="button"
        class="button button-secondary"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setMessage(null);
          try {
            const { error } = await supabase().auth.signOut({ scope: "others" });
            setMessage(
              error
                ? { error: true, text: error.message || "That did not work. Please try again." }
                : { error: false, text: "Every other device is signed out." },
            );
          } finally {
            setBusy(false);
          }
        }}
      >
        {busy ? "Please wait…" : "Sign out of other devices"}
      </button>
    </div>
  );
}
