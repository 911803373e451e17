/**
 * What a password change and signing out of the other devices leave working (docs/identity.md,
 * "What a password change keeps"): the personal access tokens still live and the media-server
 * URL, listed once the step is done, with one button that revokes every token and replaces the
 * URL. Shown inside the ChangePassword and SignOutOthers islands; this device's session does the
 * revoking.
 */
import { useEffect, useState } from "preact/hooks";
import { FormStatus } from "./FormStatus.tsx";
import { api } from "../lib/web/api.ts";
import { formFailure } from "../lib/web/form_failure.ts";
import { useAction } from "../lib/web/use_action.ts";

/** A personal token as GET /api/tokens lists it (what this list shows of it). */
interface TokenRow {
  id: string;
  name: string;
  scope: "read" | "write";
  expiresAt: string | null;
  lastUsedAt: string | null;
}

/** What is still working: the live tokens and the media-server URL. */
interface Kept {
  tokens: TokenRow[];
  webhookUrl: string;
}

// The URL's secret is a credential too: the list shows enough of it to recognise it.
function masked(url: string): string {
  const [base, secret = ""] = url.split("/hooks/");
  return `${base}/hooks/${secret.slice(0, 4)}…`;
}

/** No props: it reads the signed-in user's tokens and connection when shown. */
export function KeptAccess() {
  const [kept, setKept] = useState<Kept | null>(null);
  const { busy, message, run } = useAction();

  useEffect(() => {
    (async () => {
      const [tokens, connection] = await Promise.all([
        api<{ tokens: TokenRow[] }>("/api/tokens", { auth: true }),
        api<{ webhookUrl: string }>("/api/me/connections", { auth: true }),
      ]);
      const now = Date.now();
      setKept({
        tokens: tokens.data.tokens.filter((t) => !t.expiresAt || Date.parse(t.expiresAt) > now),
        webhookUrl: connection.data.webhookUrl,
      });
    })().catch(() => setKept(null));
  }, []);

  if (!kept) return message ? <FormStatus message={message} /> : null;

  const revokeAll = () =>
    run(async () => {
      try {
        for (const token of kept.tokens) {
          await api(`/api/tokens/${token.id}`, { method: "DELETE", auth: true });
        }
        const { data } = await api<{ webhookUrl: string }>("/api/me/connections/rotate", {
          method: "POST",
          auth: true,
        });
        const count = kept.tokens.length;
        setKept({ tokens: [], webhookUrl: data.webhookUrl });
        return {
          error: false,
          text: `${count === 1 ? "1 token is" : `${count} tokens are`} revoked and the ` +
            "media-server URL is replaced: put the new one into your media servers " +
            "(Connections).",
        };
      } catch (error) {
        return formFailure(error);
      }
    });

  return (
    <div class="kept-access">
      <p>
        These keep working, as they are not tied to your password or to a device:
      </p>
      <ul>
        {kept.tokens.map((t) => (
          <li key={t.id}>
            Personal access token <strong>{t.name}</strong>{" "}
            ({t.scope === "read" ? "read only" : "read and write"},{" "}
            {t.lastUsedAt ? "last used " + day(t.lastUsedAt) : "never used"})
          </li>
        ))}
        <li>
          Media-server URL <code>{masked(kept.webhookUrl)}</code>
        </li>
      </ul>
      <FormStatus message={message} />
      <button
        type="button"
        class="button button-secondary"
        aria-disabled={busy ? "true" : undefined}
        onClick={() => busy || revokeAll()}
      >
        {busy
          ? "Please wait…"
          : kept.tokens.length
          ? "Revoke all tokens and replace the media-server URL"
          : "Replace the media-server URL"}
      </button>
    </div>
  );
}

function day(iso: string): string {
  return new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" });
}
