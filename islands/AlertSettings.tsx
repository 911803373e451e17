/**
 * The alerts section on /account (docs/alerts.md): which kinds of alert I want (PUT
 * /api/me/alerts, saved at each switch), my channels (switch, test, remove), a form to add one by
 * type (a webhook's secret shown once), and "Allow notifications on this device" where the browser
 * can take Web Push. The server renders the first state; every change goes through the API.
 */
import { useRef, useState } from "preact/hooks";
import { FormStatus } from "../components/FormStatus.tsx";
import { AlertChannelRow, type ChannelRow } from "../components/AlertChannelRow.tsx";
import { type AlertKinds, AlertKindSwitches } from "../components/AlertKindSwitches.tsx";
import { AlertDevice } from "../components/AlertDevice.tsx";
import { AlertAddChannel } from "../components/AlertAddChannel.tsx";
import { useAction } from "../lib/web/use_action.ts";

/** What GET /api/me/alerts answers. */
export interface AlertSettingsProps {
  kinds: AlertKinds;
  channels: ChannelRow[];
}

/** The kinds, the channels, adding one, and this device's notifications. */
export default function AlertSettings(props: AlertSettingsProps) {
  const [channels, setChannels] = useState(props.channels);
  const listAction = useAction();
  const listRef = useRef<HTMLHeadingElement>(null);
  const added = (row: ChannelRow) => setChannels([...channels.filter((c) => c.id !== row.id), row]);

  return (
    <div class="alerts">
      <AlertKindSwitches initial={props.kinds} />

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

      <AlertDevice onAdded={added} />

      <AlertAddChannel onAdded={added} />
    </div>
  );
}
