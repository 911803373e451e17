/**
 * `/reset-password`, opened from the reset mail. The link carries the single-use token either
 * as `?token_hash=...&type=recovery` (this site's mail; spent with `verifyOtp` on submit, so a
 * mail scanner opening the page spends nothing) or, from Supabase Auth's own link, as a session
 * in the fragment. Then `updateUser({password})` sets the new password. The link gives an aal1
 * session; a user with two-factor codes on is refused (`mfa_required`) until the session is
 * raised, so the form then asks for the authenticator app's code (supabase-js `mfa`
 * challenge and verify, as the sign-in's code step) and sets the password after it.
 */
import { useEffect, useState } from "preact/hooks";
import { CodeField } from "../components/CodeField.tsx";
import { NewPasswordField } from "../components/NewPasswordField.tsx";
import { codeMessage } from "../lib/web/auth_messages.ts";
import { supabase } from "../lib/web/supabase.ts";

type Link =
  | { kind: "token"; tokenHash: string }
  | { kind: "session"; accessToken: string; refreshToken: string }
  | { kind: "verified" }
  | { kind: "bad"; text: string };

/** What the address bar holds; the token leaves it at once (history, screenshots). */
function readLink(): Link {
  const query = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (location.search || location.hash) history.replaceState(null, "", location.pathname);
  const tokenHash = query.get("token_hash");
  if (tokenHash && query.get("type") === "recovery") return { kind: "token", tokenHash };
  const accessToken = fragment.get("access_token");
  const refreshToken = fragment.get("refresh_token");
  if (accessToken && refreshToken) return { kind: "session", accessToken, refreshToken };
  return {
    kind: "bad",
    text: fragment.get("error_code") === "otp_expired"
      ? "This link has expired or was already used."
      : "Open this page from the link in the password reset mail.",
  };
}

const EXPIRED = "This link has expired or was already used.";

/** No props: the link is in the page's address. */
export default function ResetPassword() {
  const [link, setLink] = useState<Link | null>(null);
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [error, setError] = useState("");
  // Set once the server asked for the second factor: the form shows the code field.
  const [needCode, setNeedCode] = useState(false);
  const [code, setCode] = useState("");
  // A lost phone's owner resets with one of the backup codes instead (docs/oidc.md).
  const [backup, setBackup] = useState(false);
  useEffect(() => setLink(readLink()), []);

  // Spends the link once; after that the session it gave is used.
  async function signInWithLink(): Promise<boolean> {
    if (link?.kind === "verified") return true;
    const auth = supabase().auth;
    const { error } = link?.kind === "token"
      ? await auth.verifyOtp({ token_hash: link.tokenHash, type: "recovery" })
      : link?.kind === "session"
      ? await auth.setSession({ access_token: link.accessToken, refresh_token: link.refreshToken })
      : { error: new Error("no link") };
    if (error) {
      setLink({ kind: "bad", text: EXPIRED });
      return false;
    }
    setLink({ kind: "verified" });
    return true;
  }

  // Raises the link's aal1 session to aal2 with the code; an error's words, or "" when done.
  async function verifyCode(): Promise<string> {
    const auth = supabase().auth;
    const { data } = await auth.mfa.listFactors();
    const factor = data?.totp[0];
    if (!factor) return "No two-factor app is set up for this account.";
    const { error } = await auth.mfa.challengeAndVerify({ factorId: factor.id, code: code.trim() });
    return error ? codeMessage(error.code, error.message) : "";
  }

  async function submit(event: Event) {
    event.preventDefault();
    // Never disabled (keyboard focus would fall to the page): a press while busy does nothing.
    if (busy || !link) return;
    setBusy(true);
    setError("");
    try {
      if (!await signInWithLink()) return;
      if (needCode) {
        const refused = await verifyCode();
        if (refused) return setError(refused);
      }
      const { error } = await supabase().auth.updateUser({ password });
      // mfa_required from this site's provider; Supabase Auth says insufficient_aal.
      if (error?.code === "mfa_required" || error?.code === "insufficient_aal") {
        setNeedCode(true);
        return setError(
          "Your account has two-factor codes on: enter the code of your authenticator app " +
            "to set the new password.",
        );
      }
      if (error) return setError(error.message || "The password could not be changed.");
      // The server renders the header: the account page shows the user signed in, and says so.
      location.assign("/account?notice=password-set");
      setDone(true);
    } finally {
      setBusy(false);
    }
  }

  if (done) {
    return (
      <div class="auth">
        <h1>Password changed</h1>
        <p role="status" class="status">Your new password is set. Opening your account…</p>
        <p>
          <a class="button" href="/">Browse movies</a> <a href="/account">Your account</a>
        </p>
      </div>
    );
  }
  return (
    <div class="auth">
      <h1>Choose a new password</h1>
      {link?.kind === "bad"
        ? (
          <p class="status status-error" role="alert">
            {link.text} <a href="/forgot-password">Ask for a new link</a>
          </p>
        )
        : (
          <form class="form" method="post" onSubmit={submit}>
            <p class="status status-error" role="status">{error}</p>
            <NewPasswordField
              id="reset-password"
              label="New password"
              value={password}
              onInput={setPassword}
            />
            {needCode
              ? (
                <>
                  <CodeField id="reset-code" value={code} onInput={setCode} backup={backup} />
                  <p class="auth-switch">
                    <button
                      type="button"
                      class="link-button"
                      onClick={() => {
                        setBackup(!backup);
                        setCode("");
                      }}
                    >
                      {backup
                        ? "Use the authenticator app's code"
                        : "Lost your phone? Use a backup code"}
                    </button>
                  </p>
                </>
              )
              : null}
            <button
              type="submit"
              class="button"
              aria-disabled={busy || !link ? "true" : undefined}
            >
              {busy ? "Please wait…" : "Set new password"}
            </button>
          </form>
        )}
    </div>
  );
}
