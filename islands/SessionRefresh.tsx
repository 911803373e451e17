/**
 * Rendered when the request's session cookie did not verify (its access token expired): asks
 * supabase-js for the session, which refreshes the token into the cookie, and reloads once so
 * the server renders the signed-in page. A token the server still refuses is dropped.
 */
import { useEffect } from "preact/hooks";
import { refreshedAccessToken, supabase } from "../lib/web/supabase.ts";

const TRIED = "movies-session-refresh-tried";

/** Renders nothing; works in an effect. */
export default function SessionRefresh() {
  useEffect(() => {
    (async () => {
      const token = await refreshedAccessToken().catch(() => undefined);
      if (!token) return;
      if (sessionStorage.getItem(TRIED) === token) {
        // Reloaded with this very token and still signed out: it is not ours (old key, other site).
        sessionStorage.removeItem(TRIED);
        await supabase().auth.signOut({ scope: "local" });
        return;
      }
      sessionStorage.setItem(TRIED, token);
      location.reload();
    })();
  }, []);
  return null;
}
