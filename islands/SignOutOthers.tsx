/**
 * "Sign out of other devices": supabase-js `signOut({scope: "others"})`; this one stays. What
 * that leaves working (personal tokens, the media-server URL) is listed next, with one button to
 * revoke it all (KeptAccess).
 */
import { useState } from "preact/hooks";
import { FormStatus } from "../components/FormStatus.tsx";
import { supabase } from "../lib/web/supabase.ts";
import { useAction } from "../lib/web/use_action.ts";
import { KeptAccess } from "../components/KeptAccess.tsx";

/** No props: the session lives in the cookie. */
export default function SignOutOthers() {
  const { busy, message, run } = useAction();
  const [done, setDone] = useState(false);
  return (
    <div>
      <FormStatus message={message} />
      <button
        type="button"
        class="button button-secondary"
        aria-disabled={busy ? "true" : undefined}
        onClick={() =>
          busy || run(async () => {
            const { error } = await supabase().auth.signOut({ scope: "others" });
            if (!error) setDone(true);
            return error
              ? { error: true, text: error.message || "That did not work. Please try again." }
              : { error: false, text: "Every other device is signed out." };
          })}
      >
        {busy ? "Please wait…" : "Sign out of other devices"}
      </button>
      {done ? <KeptAccess /> : null}
    </div>
  );
}
