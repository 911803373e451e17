/**
 * Which kinds of alert I want, in the alerts section on /account (islands/AlertSettings.tsx):
 * a switch per kind, saved by PUT /api/me/alerts at each change and put back if that fails.
 */
import { useState } from "preact/hooks";
import { FormStatus } from "./FormStatus.tsx";
import { api } from "../lib/web/api.ts";
import { formFailure } from "../lib/web/form_failure.ts";
import { useAction } from "../lib/web/use_action.ts";

/** The four kinds and whether each is on. */
export type AlertKinds = Record<
  "now_streaming" | "in_theaters" | "on_digital" | "on_physical",
  boolean
>;

const KIND_LABELS: [keyof AlertKinds, string][] = [
  ["now_streaming", "starts streaming on one of my services"],
  ["in_theaters", "is in theaters"],
  ["on_digital", "is out on digital (to rent or buy)"],
  ["on_physical", "is out on disc"],
];

/** The kinds' fieldset, starting from `initial` (what the server rendered). */
export function AlertKindSwitches({ initial }: { initial: AlertKinds }) {
  const [kinds, setKinds] = useState(initial);
  const kindsAction = useAction();

  function switchKind(kind: keyof AlertKinds, on: boolean) {
    const before = kinds;
    setKinds({ ...kinds, [kind]: on });
    kindsAction.run(async () => {
      try {
        const { data } = await api<{ kinds: AlertKinds }>("/api/me/alerts", {
          method: "PUT",
          auth: true,
          body: { kinds: { [kind]: on } },
        });
        setKinds(data.kinds);
        return { error: false, text: "Saved." };
      } catch (error) {
        setKinds(before);
        return formFailure(error);
      }
    });
  }

  return (
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
  );
}
