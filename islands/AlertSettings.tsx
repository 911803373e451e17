/**
 * The alerts section on /account (docs/alerts.md): which kinds of alert I want (PUT
 * /api/me/alerts, saved at each switch), my channels (switch, test, remove), a form to add one by
 * type (a webhook's secret shown once), and "Allow notifications on this device" where the browser
 * can take Web Push. The server renders the first state; every change goes through the API.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { FormStatus } from "../components/FormStatus.tsx";
import { AlertChannelRow, type ChannelRow } from "../components/AlertChannelRow.tsx";
import { api, ApiError } from "../lib/web/api.ts";
import { useAction } from "../lib/web/use_action.ts";
import {
  deviceName,
  PushRefused,
  pushSupported,
  subscribeThisDevice,
} from "../lib/web/push_subscribe.ts";

/** The four kinds and whether each is on. */
type Kinds = Record<"now_streaming" | "in_theaters" | "on_digital" | "on_physical", boolean>;

/** What GET /api/me/alerts answers. */
export interface AlertSettingsProps {
  kinds: Kinds;
  channels: ChannelRow[];
}

const KIND_LABELS: [keyof Kinds, string][] = [
  ["now_streaming", "starts streaming on one of my services"],
  ["in_theaters", "is in theaters"],
  ["on_digital", "is out on digital (to rent or buy)"],
  ["on_physical", "is out on disc"],
];

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

function failure(error: unknown) {
  return {
    error: true,
    text: error instanceof ApiError ? error.message : "That did not work. Please try again.",
  };
}

/** The kinds, the channels, adding one, and this device's notifications. */
export default function AlertSettings(props: AlertSettingsProps) {
  const [kinds, setKinds] = useState(props.kinds);
  const [channels, setChannels] = useState(props.channels);
  const [addType, setAddType] = useState<AddType>("ntfy");
  const [secret, setSecret] = useState<{ name: string; value: string } | null>(null);
  const [canPush, setCanPush] = useState<boolean | null>(null);
  const kindsAction = useAction();
  const addAction = useAction();
  const pushAction = useAction();
  const listAction = useAction();
  const secretRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLHeadingElement>(null);
  // Known only in the browser: the server renders neither the button nor the hint.
  useEffect(() => setCanPush(pushSupported()), []);
  const spec = ADD_TYPES.find((t) => t.type === addType)!;

  function switchKind(kind: keyof Kinds, on: boolean) {
    const before = kinds;
    setKinds({ ...kinds, [kind]: on });
    kindsAction.run(async () => {
      try {
        const { data } = await api<AlertSettingsProps>("/api/me/alerts", {
          method: "PUT",
          auth: true,
          body: { kinds: { [kind]: on } },
        });
        setKinds(data.kinds);
        return { error: false, text: "Saved." };
      } catch (error) {
        setKinds(before);
        return failure(error);
      }
    });
  }

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
        setChannels([...channels.filter((c) => c.id !== row.id), row]);
        form.reset();
        if (shown) {
          setSecret({ name: row.name, value: shown });
          queueMicrotask(() => secretRef.current?.select());
        }
        return { error: false, text: `${row.name} is added. Send it a test to check it works.` };
      } catch (error) {
        return failure(error);
      }
    });
  }

  function allowThisDevice() {
    pushAction.run(async () => {
      try {
        const { data: key } = await api<{ publicKey: string }>("/api/push/key");
        const subscription = await subscribeThisDevice(key.publicKey);
        const { data: made } = await api<ChannelRow>("/api/me/alerts/channels", {
          method: "POST",
          auth: true,
          body: {
            type: "webpush",
            name: deviceName(),
            subscription: { endpoint: subscription.endpoint, keys: subscription.keys },
          },
        });
        setChannels([...channels.filter((c) => c.id !== made.id), made]);
        return {
          error: false,
          text: `Notifications are on for ${made.name}. Send it a test to see one.`,
        };
      } catch (error) {
        if (error instanceof PushRefused) return { error: true, text: error.message };
        return failure(error);
      }
    });
  }

  return (
    <div class="alerts">
      <fieldset class="alert-kinds">
        <legend>Tell me when a movie on My List…</legend>
        {KIND_LABELS.map(([kind, label]) => (
          <label class="switch" key={kind}>
            <input
              type="checkbox"
              name={kind}
              checked={kinds[kind]}
              onChange={(e) => switchKind(kind, (e.target as HTMLInputElement).checked)}
            />
            {label}
          </label>
        ))}
        <FormStatus message={kindsAction.message} />
      </fieldset>

      <h3 id="alert-channels-heading" tabIndex={-1} ref={listRef}>Where alerts go</h3>
      {channels.length
        ? (
          <ul class="token-list alert-channels" aria-labelledby="alert-channels-heading">
            {channels.map((c) => (
              <AlertChannelRow
                key={c.id}
                channel={c}
                onChange={(next) => setChannels(channels.map((x) => (x.id === next.id ? next : x)))}
                onRemoved={() => {
                  setChannels(channels.filter((x) => x.id !== c.id));
                  listAction.setMessage({ error: false, text: `${c.name} is removed.` });
                  // The row and its button are gone: keep the reader in the list's place.
                  queueMicrotask(() => listRef.current?.focus());
                }}
              />
            ))}
          </ul>
        )
        : <p class="hint">No channels yet: alerts show only in the bell until you add one.</p>}
      <FormStatus message={listAction.message} />

      {canPush === true
        ? (
          <div class="alert-device">
            <button
              type="button"
              class="button"
              aria-disabled={pushAction.busy ? "true" : undefined}
              onClick={() => !pushAction.busy && allowThisDevice()}
            >
              {pushAction.busy ? "Asking…" : "Allow notifications on this device"}
            </button>
            <FormStatus message={pushAction.message} />
          </div>
        )
        : canPush === false
        ? (
          <p class="hint">
            This browser cannot show push notifications from the site. On an iPhone or iPad, add the
            site to the Home Screen and open it from there.
          </p>
        )
        : null}

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
    </div>
  );
}
