/**
 * Rendered when the request's session cookie did not verify (its access token expired, or its
 * session was ended elsewhere): asks supabase-js for the session, which refreshes the token into
 * the cookie, and reloads once so the server renders the signed-in page. When the session is
 * gone (no refresh, or the server still refuses the very token), it is dropped here too, and the
 * page says why instead of silently showing "Sign in".
 */
import { useEffect, useState } from "preact/hooks";
import { refreshedAccessToken, supabase } from "../lib/web/supabase.ts";

const TRIED = "movies-session-refresh-tried";

/** Nothing while it works; a notice when this device's session has ended. */
export default function SessionRefresh() {
  const [ended, setEnded] = useState(false);
  useEffect(() => {
    (async () => {
      const token = await refreshedAccessToken().catch(() => undefined);
      if (!token) return setEnded(true);
      if (sessionStorage.getItem(TRIED) === token) {
        // Reloaded with this very token and still signed out: its session was ended.
        sessionStorage.removeItem(TRIED);
        await supabase().auth.signOut({ scope: "local" });
        return setEnded(true);
      }
      sessionStorage.setItem(TRIED, token);
      location.reload();
    })();
  }, []);
  if (!ended) return null;
  const next = encodeURIComponent(location.pathname);
  return (
    <div class="wrap">
      <p class="notice notice-note" role="status">
        You were signed out on this device: the password was changed, you signed out of your other
        devices, or it was not used for a long time.{" "}
        <a href={`/login?next=${next}`}>Sign in again</a>.
      </p>
    </div>
  );
}
