/**
 * "Add a channel" in the alerts section on /account (islands/AlertSettings.tsx): a form by type
 * (ntfy, Discord, webhook, Apprise, email) posted to /api/me/alerts/channels, and a webhook's
 * signing secret, shown this once.
 */
import { useRef, useState } from "preact/hooks";
import { FormStatus } from "./FormStatus.tsx";
import type { ChannelRow } from "./AlertChannelRow.tsx";
import { api } from "../lib/web/api.ts";
import { formFailure } from "../lib/web/form_failure.ts";
import { useAction } from "../lib/web/use_action.ts";

type AddType = "ntfy" | "discord" | "webhook" | "apprise" | "email";

const ADD_TYPES: { type: AddType; label: string; url?: string; placeholder?: string }[] = [
  {
    type: "ntfy",
    label: "ntfy",
    url: "Server and topic",
    placeholder: "https://ntfy.sh/my-movie-alerts",
  },
  {
    type: "discord",
    label: "Discord",
    url: "Webhook URL",
    placeholder: "https://discord.com/api/webhooks/…",
  },
  {
    type: "webhook",
    label: "Webhook (signed JSON)",
    url: "URL",
    placeholder: "https://example.com/hooks/movies",
  },
  {
    type: "apprise",
    label: "Apprise API",
    url: "Notify URL",
    placeholder: "http://apprise:8000/notify/apprise",
  },
  { type: "email", label: "Email (the daily digest)" },
];

/** The heading, the form, its status and the secret; `onAdded` gets the new channel's row. */
export function AlertAddChannel({ onAdded }: { onAdded: (channel: ChannelRow) => void }) {
  const [addType, setAddType] = useState<AddType>("ntfy");
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const addAction = useAction();
  const secretRef = useRef<HTMLInputElement>(null);
  const spec = ADD_TYPES.find((t) => t.type === addType)!;

  async function add(form: HTMLFormElement) {
    const data = new FormData(form);
    const text = (name: string) => String(data.get(name) ?? "").trim();
    const body: Record<string, unknown> = { type: addType };
    if (text("name")) body.name = text("name");
    if (addType !== "email") body.url = text("url");
    if (addType === "ntfy" && text("token")) body.token = text("token");
    await addAction.run(async () => {
      try {
        const { data: made } = await api<ChannelRow & { secret?: string }>(
          "/api/me/alerts/channels",
          { method: "POST", auth: true, body },
        );
        const { secret: shown, ...row } = made;
        onAdded(row);
        form.reset();
        if (shown) {
          setSecret({ name: row.name, value: shown });
          queueMicrotask(() => secretRef.current?.select());
        }
        return { error: false, text: `${row.name} is added. Send it a test to check it works.` };
      } catch (error) {
        return formFailure(error);
      }
    });
  }

  return (
    <>
      <h3 id="alert-add-heading">Add a channel</h3>
      <form
        class="token-form alert-add"
        aria-labelledby="alert-add-heading"
        onSubmit={(event) => {
          event.preventDefault();
          if (!addAction.busy) add(event.currentTarget);
        }}
      >
        <label>
          Type
          <select
            name="type"
            value={addType}
            onChange={(e) => setAddType((e.target as HTMLSelectElement).value as AddType)}
          >
            {ADD_TYPES.map((t) => <option key={t.type} value={t.type}>{t.label}</option>)}
          </select>
        </label>
        <label>
          Name (optional)
          <input name="name" maxLength={100} autoComplete="off" />
        </label>
        {spec.url
          ? (
            <label>
              {spec.url}
              <input
                name="url"
                type="url"
                required
                maxLength={2048}
                placeholder={spec.placeholder}
                autoComplete="off"
              />
            </label>
          )
          : null}
        {addType === "ntfy"
          ? (
            <label>
              Access token (optional)
              <input name="token" type="password" maxLength={200} autoComplete="off" />
            </label>
          )
          : null}
        <button type="submit" class="button" aria-disabled={addAction.busy ? "true" : undefined}>
          {addAction.busy ? "Adding…" : "Add channel"}
        </button>
      </form>
      {addType === "email"
        ? (
          <p class="hint">
            The email channel sends the daily digest to your account's address; it is the same
            switch as "E-mail me" under My services.
          </p>
        )
        : null}
      <FormStatus message={addAction.message} />
      {secret
        ? (
          <div class="token-once" role="status">
            <p>
              The signing secret of{" "}
              <strong>{secret.name}</strong>. Copy it into the receiver now: it is shown only this
              once.
            </p>
            <input
              ref={secretRef}
              readOnly
              value={secret.value}
              aria-label="The webhook's signing secret"
              class="token-value"
            />
            <button
              type="button"
              class="button button-secondary"
              onClick={async () => {
                await navigator.clipboard?.writeText(secret.value).catch(() => {});
                addAction.setMessage({ error: false, text: "Copied." });
              }}
            >
              Copy
            </button>
          </div>
        )
        : null}
    </>
  );
}
