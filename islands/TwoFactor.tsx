/**
 * The account page's two-factor codes (supabase-js `auth.mfa`): turn them on by scanning the QR
 * code (or typing the secret) into an authenticator app and confirming one code; turn them off
 * (a session raised by a code is needed, so the current code is asked for first).
 */
import { useEffect, useState } from "preact/hooks";
import { FormStatus } from "../components/FormStatus.tsx";
import { supabase } from "../lib/web/supabase.ts";
import { useAction } from "../lib/web/use_action.ts";
import { codeMessage } from "../lib/web/auth_messages.ts";

interface Pending {
  id: string;
  qr: string;
  secret: string;
}

/** The section's body: the state, the enrolment step, and the code field. */
export default function TwoFactor() {
  const [factorId, setFactorId] = useState<string | null | undefined>(undefined);
  const [pending, setPending] = useState<Pending | null>(null);
  const [code, setCode] = useState("");
  const { busy, message, run } = useAction();

  async function load() {
    const { data } = await supabase().auth.mfa.listFactors();
    setFactorId(data?.totp[0]?.id ?? null);
  }
  useEffect(() => {
    load();
  }, []);

  const start = () =>
    run(async () => {
      const { data, error } = await supabase().auth.mfa.enroll({ factorType: "totp" });
      if (error) return { error: true, text: error.message };
      setPending({ id: data.id, qr: data.totp.qr_code, secret: data.totp.secret });
    });

  const confirm = (event: Event) => {
    event.preventDefault();
    return run(async () => {
      const id = pending?.id ?? factorId;
      if (!id) return;
      const auth = supabase().auth;
      const { error } = await auth.mfa.challengeAndVerify({ factorId: id, code: code.trim() });
      if (error) return { error: true, text: codeMessage(error.code, error.message) };
      setCode("");
      if (pending) {
        setPending(null);
        await load();
        return { error: false, text: "Two-factor codes are on. Sign-in now asks for a code." };
      }
      const off = await auth.mfa.unenroll({ factorId: id });
      if (off.error) return { error: true, text: off.error.message };
      await load();
      return { error: false, text: "Two-factor codes are off." };
    });
  };

  if (factorId === undefined) return <p class="hint">Loading…</p>;
  const codeField = (label: string) => (
    <form class="form" onSubmit={confirm}>
      <div class="field">
        <label for="totp-code">{label}</label>
        <input
          id="totp-code"
          inputMode="numeric"
          autocomplete="one-time-code"
          pattern="[0-9]{6}"
          maxLength={6}
          required
          value={code}
          onInput={(e) => setCode(e.currentTarget.value)}
        />
      </div>
      <button type="submit" class="button" aria-disabled={busy ? "true" : undefined}>
        {busy ? "Please wait…" : pending ? "Turn on" : "Turn off"}
      </button>
    </form>
  );
  return (
    <div class="two-factor">
      <FormStatus message={message} />
      {pending
        ? (
          <div class="two-factor-enrol">
            <p>Scan this code with an authenticator app, or type the secret into it.</p>
            <img class="two-factor-qr" src={pending.qr} alt="QR code of the two-factor secret" />
            <p>
              Secret: <code class="two-factor-secret">{pending.secret}</code>
            </p>
            {codeField("The 6-digit code the app shows")}
          </div>
        )
        : factorId
        ? (
          <>
            <p>Two-factor codes are on.</p>
            {codeField("To turn them off, enter a current code")}
          </>
        )
        : (
          <>
            <p class="hint">
              Ask for a code from an authenticator app at every sign-in, and before changing the
              password or deleting the account.
            </p>
            <button type="button" class="button" onClick={start}>
              {busy ? "Please wait…" : "Set up two-factor codes"}
            </button>
          </>
        )}
    </div>
  );
}
