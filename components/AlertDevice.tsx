/**
 * "Allow notifications on this device" in the alerts section on /account
 * (islands/AlertSettings.tsx): subscribes this browser to Web Push and adds it as a channel.
 */
import { useEffect, useState } from "preact/hooks";
import { FormStatus } from "./FormStatus.tsx";
import type { ChannelRow } from "./AlertChannelRow.tsx";
import { api } from "../lib/web/api.ts";
import { formFailure } from "../lib/web/form_failure.ts";
import { useAction } from "../lib/web/use_action.ts";
import {
  deviceName,
  PushRefused,
  pushSupported,
  subscribeThisDevice,
} from "../lib/web/push_subscribe.ts";

/** The button where the browser can take Web Push, a hint where it cannot; `onAdded` the row. */
export function AlertDevice({ onAdded }: { onAdded: (channel: ChannelRow) => void }) {
  const [canPush, setCanPush] = useState<boolean | null>(null);
  const pushAction = useAction();
  // Known only in the browser: the server renders neither the button nor the hint.
  useEffect(() => setCanPush(pushSupported()), []);

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
        onAdded(made);
        return {
          error: false,
          text: `Notifications are on for ${made.name}. Send it a test to see one.`,
        };
      } catch (error) {
        if (error instanceof PushRefused) return { error: true, text: error.message };
        return formFailure(error);
      }
    });
  }

  return canPush === true
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
    : null;
}
