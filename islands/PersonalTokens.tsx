/**
 * The personal access tokens on /account/connections: make one (its value shown once, with a
 * Copy button), and revoke any. The list arrives rendered by the server.
 */
import { useRef, useState } from "preact/hooks";
import { FormStatus } from "../components/FormStatus.tsx";
import { api } from "../lib/web/api.ts";
import { formFailure } from "../lib/web/form_failure.ts";
import { useAction } from "../lib/web/use_action.ts";

/** A token as the list shows it. */
export interface TokenRow {
  id: string;
  name: string;
  scope: "read" | "write";
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
}

function day(iso: string | null, none: string): string {
  return iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" }) : none;
}

/** `tokens`: the user's tokens, newest first. */
export default function PersonalTokens({ tokens: initial }: { tokens: TokenRow[] }) {
  const [tokens, setTokens] = useState(initial);
  const [shown, setShown] = useState<{ name: string; value: string } | null>(null);
  const { busy, message, setMessage, run } = useAction();
  const valueRef = useRef<HTMLInputElement>(null);

  async function create(form: HTMLFormElement) {
    const data = new FormData(form);
    const days = String(data.get("expires") ?? "");
    await run(async () => {
      try {
        const { data: made } = await api<TokenRow & { token: string }>("/api/tokens", {
          method: "POST",
          auth: true,
          body: {
            name: String(data.get("name") ?? ""),
            scope: String(data.get("scope") ?? "read"),
            ...(days ? { expiresInDays: Number(days) } : {}),
          },
        });
        const { token, ...row } = made;
        setTokens([row, ...tokens]);
        setShown({ name: row.name, value: token });
        form.reset();
        // The value is the one thing to act on now: take the reader to it.
        queueMicrotask(() => valueRef.current?.select());
        return null;
      } catch (error) {
        return formFailure(error);
      }
    });
  }

  return (
    <div class="tokens">
      <form
        class="token-form"
        onSubmit={(event) => {
          event.preventDefault();
          create(event.currentTarget);
        }}
      >
        <label>
          Name
          <input name="name" required maxLength={60} placeholder="e.g. Home server sync" />
        </label>
        <label>
          Access
          <select name="scope">
            <option value="read">Read only (GET)</option>
            <option value="write">Read and write</option>
          </select>
        </label>
        <label>
          Expires
          <select name="expires">
            <option value="30">in 30 days</option>
            <option value="90">in 90 days</option>
            <option value="365">in a year</option>
            <option value="">never</option>
          </select>
        </label>
        <button type="submit" class="button" aria-disabled={busy ? "true" : undefined}>
          {busy ? "Making…" : "Make a token"}
        </button>
      </form>
      <FormStatus message={message} />
      {shown
        ? (
          <div class="token-once" role="status">
            <p>
              Your token <strong>{shown.name}</strong>. Copy it now: it is shown only this once.
            </p>
            <input
              ref={valueRef}
              readOnly
              value={shown.value}
              aria-label="The new token's value"
              class="token-value"
            />
            <button
              type="button"
              class="button button-secondary"
              onClick={async () => {
                await navigator.clipboard?.writeText(shown.value).catch(() => {});
                setMessage({ error: false, text: "Copied." });
              }}
            >
              Copy
            </button>
          </div>
        )
        : null}
      {tokens.length
        ? (
          <ul class="token-list">
            {tokens.map((t) => (
              <li key={t.id}>
                <span class="token-name">{t.name}</span>{" "}
                <span class="hint">
                  {t.scope === "read" ? "read only" : "read and write"} · made{" "}
                  {day(t.createdAt, "")} · expires {day(t.expiresAt, "never")} · last used{" "}
                  {day(t.lastUsedAt, "never")}
                </span>{" "}
                <button
                  type="button"
                  class="button button-small button-danger"
                  aria-label={`Revoke ${t.name}`}
                  onClick={() =>
                    run(async () => {
                      try {
                        await api(`/api/tokens/${t.id}`, { method: "DELETE", auth: true });
                        setTokens(tokens.filter((x) => x.id !== t.id));
                        return { error: false, text: `${t.name} is revoked.` };
                      } catch (error) {
                        return formFailure(error);
                      }
                    })}
                >
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        )
        : <p class="hint">No tokens yet.</p>}
    </div>
  );
}
