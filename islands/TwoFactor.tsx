/**
 * The account page's two-factor codes (supabase-js `auth.mfa`): turn them on by scanning the QR
 * code (or typing the secret) into an authenticator app and confirming one code; turn them off
 * (a session raised by a code is needed, so the current code is asked for first). Turning them
 * on shows the 10 one-time backup codes once, to copy or download; while on, the section says how
 * many are left and gives new ones (docs/identity.md, "Backup codes").
 */
import { useEffect, useState } from "preact/hooks";
import { FormStatus } from "../components/FormStatus.tsx";
import { supabase } from "../lib/web/supabase.ts";
import { useAction } from "../lib/web/use_action.ts";
import { codeMessage } from "../lib/web/auth_messages.ts";
import { accessToken } from "../lib/web/live_session.ts";

interface Pending {
  id: string;
  qr: string;
  secret: string;
  backupCodes: string[];
}

/** GET (how many are left) or POST (new codes) of the factor's backup codes, at aal2. */
async function backupCodes<T>(factorId: string, method: "GET" | "POST"): Promise<T> {
  const token = await accessToken();
  const response = await fetch(`/auth/v1/factors/${encodeURIComponent(factorId)}/backup_codes`, {
    method,
    headers: { accept: "application/json", authorization: `Bearer ${token ?? ""}` },
  });
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new Error(body?.msg ?? body?.message ?? `The request failed (${response.status}).`);
  }
  return body as T;
}

/** The codes, shown once: copy them, download them as a text file, or say they are kept. */
function ShownCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const text = codes.join("\n") + "\n";
  const href = `data:text/plain;charset=utf-8,${encodeURIComponent(text)}`;
  return (
    <div class="two-factor-backup" role="region" aria-labelledby="backup-codes-heading">
      <h3 id="backup-codes-heading">Your backup codes</h3>
      <p>
        Keep these somewhere safe: each signs you in once if you lose your phone. They are shown
        only now.
      </p>
      <ul class="two-factor-codes">
        {codes.map((c) => (
          <li key={c}>
            <code>{c}</code>
          </li>
        ))}
      </ul>
      <p class="two-factor-actions">
        <button
          type="button"
          class="button button-secondary"
          onClick={async () => {
            await navigator.clipboard?.writeText(text).catch(() => {});
            setCopied(true);
          }}
        >
          {copied ? "Copied" : "Copy"}
        </button>{" "}
        <a class="button button-secondary" href={href} download="backup-codes.txt">Download</a>{" "}
        <button type="button" class="button" onClick={onDone}>I have saved them</button>
      </p>
    </div>
  );
}

/** The section's body: the state, the enrolment step, and the code field. */
export default function TwoFactor() {
  const [factorId, setFactorId] = useState<string | null | undefined>(undefined);
  const [pending, setPending] = useState<Pending | null>(null);
  const [code, setCode] = useState("");
  const [shown, setShown] = useState<string[] | null>(null);
  const [left, setLeft] = useState<number | null>(null);
  const { busy, message, run } = useAction();

  async function load() {
    const { data } = await supabase().auth.mfa.listFactors();
    const id = data?.totp[0]?.id ?? null;
    setFactorId(id);
    setLeft(null);
    if (id) {
      const count = await backupCodes<{ remaining: number }>(id, "GET").catch(() => null);
      setLeft(count?.remaining ?? null);
    }
  }

  const renew = () =>
    run(async () => {
      if (!factorId) return;
      try {
        const fresh = await backupCodes<{ backup_codes: string[] }>(factorId, "POST");
        setShown(fresh.backup_codes);
        setLeft(fresh.backup_codes.length);
      } catch (error) {
        return { error: true, text: (error as Error).message };
      }
      return { error: false, text: "New backup codes: the old ones no longer work." };
    });
  useEffect(() => {
    load();
  }, []);

  const start = () =>
    run(async () => {
      const { data, error } = await supabase().auth.mfa.enroll({ factorType: "totp" });
      if (error) return { error: true, text: error.message };
      // This site's enrolment answers the backup codes beside GoTrue's fields.
      const codes = (data as unknown as { backup_codes?: string[] }).backup_codes ?? [];
      setPending({
        id: data.id,
        qr: data.totp.qr_code,
        secret: data.totp.secret,
        backupCodes: codes,
      });
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
        setShown(pending.backupCodes.length ? pending.backupCodes : null);
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
            {shown
              ? <ShownCodes codes={shown} onDone={() => setShown(null)} />
              : (
                <p class="two-factor-left">
                  {left === null ? "" : `${left} of 10 backup codes left. `}
                  <button type="button" class="link-button" onClick={renew}>
                    New backup codes
                  </button>
                </p>
              )}
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
