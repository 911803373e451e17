/**
 * One alert channel in the alerts section on /account (islands/AlertSettings.tsx): its name,
 * type and masked target, when it last delivered or why it failed, its on/off switch, a test
 * button whose outcome shows beside it, and remove.
 */
import { FormStatus } from "./FormStatus.tsx";
import { api } from "../lib/web/api.ts";
import { useAction } from "../lib/web/use_action.ts";
import { formFailure } from "../lib/web/form_failure.ts";
import type { ChannelView } from "@/lib/catalog/notifications/channels/channel_store.ts";

/** A channel as GET /api/me/alerts lists it. */
export type ChannelRow = ChannelView;

const TYPE_LABELS: Record<string, string> = {
  email: "Email",
  webpush: "Push on a device",
  ntfy: "ntfy",
  discord: "Discord",
  webhook: "Webhook",
  apprise: "Apprise",
};

function when(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** The row; `onChange` gets the channel as the server now has it, `onRemoved` after a delete. */
export function AlertChannelRow(
  { channel, onChange, onRemoved }: {
    channel: ChannelRow;
    onChange: (next: ChannelRow) => void;
    onRemoved: () => void;
  },
) {
  const { busy, message, run } = useAction();
  const c = channel;

  function toggle(enabled: boolean) {
    run(async () => {
      try {
        const { data } = await api<ChannelRow>(`/api/me/alerts/channels/${c.id}`, {
          method: "PATCH",
          auth: true,
          body: { enabled },
        });
        onChange(data);
        return { error: false, text: enabled ? "On." : "Off: no alerts go here." };
      } catch (error) {
        return formFailure(error);
      }
    });
  }

  function test() {
    if (busy) return;
    run(async () => {
      try {
        const { data } = await api<{ delivered: boolean; error?: string }>(
          `/api/me/alerts/channels/${c.id}/test`,
          { method: "POST", auth: true },
        );
        // The test counted as a delivery: show its time or its error as the list would.
        const at = new Date().toISOString();
        onChange(
          data.delivered
            ? { ...c, lastDeliveryAt: at, lastError: null }
            : { ...c, lastError: data.error ?? "not delivered" },
        );
        return data.delivered
          ? { error: false, text: "Test delivered." }
          : { error: true, text: `Test not delivered: ${data.error ?? "unknown error"}` };
      } catch (error) {
        return formFailure(error);
      }
    });
  }

  function remove() {
    if (busy) return;
    run(async () => {
      try {
        await api(`/api/me/alerts/channels/${c.id}`, { method: "DELETE", auth: true });
        onRemoved();
        return null;
      } catch (error) {
        return formFailure(error);
      }
    });
  }

  return (
    <li class="alert-channel">
      <span class="token-name">{c.name}</span>{" "}
      <span class="hint">
        {TYPE_LABELS[c.type] ?? c.type}
        {c.target ? ` · ${c.target}` : ""}
        {" · "}
        {c.lastDeliveryAt ? `last delivered ${when(c.lastDeliveryAt)}` : "nothing delivered yet"}
      </span>
      {c.lastError ? <p class="hint alert-channel-error">Last error: {c.lastError}</p> : null}
      <div class="alert-channel-actions">
        <label class="switch">
          <input
            type="checkbox"
            checked={c.enabled}
            aria-label={`${c.name}: on`}
            onChange={(e) => toggle((e.target as HTMLInputElement).checked)}
          />
          On
        </label>
        <button
          type="button"
          class="button button-small"
          aria-label={`Test ${c.name}`}
          aria-disabled={busy ? "true" : undefined}
          onClick={test}
        >
          Test
        </button>
        <button
          type="button"
          class="button button-small button-danger"
          aria-label={`Remove ${c.name}`}
          aria-disabled={busy ? "true" : undefined}
          onClick={remove}
        >
          Remove
        </button>
      </div>
      <FormStatus message={message} />
    </li>
  );
}
