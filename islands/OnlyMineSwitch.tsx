/**
 * "Only what I can stream" on /recommendations: turns `onlyMine` on or off at once (PUT
 * /api/me/services with that field alone). It shapes the next generation; the set shown stays
 * as it was made until Refresh (docs/availability.md).
 */
import { useState } from "preact/hooks";
import { FormStatus } from "../components/FormStatus.tsx";
import { api, ApiError } from "../lib/web/api.ts";
import { useAction } from "../lib/web/use_action.ts";

/** The switch's state and the services it keeps to (names, in the user's order). */
export interface OnlyMineSwitchProps {
  on: boolean;
  services: string[];
  country: string;
}

/** The switch and its status line. */
export default function OnlyMineSwitch(props: OnlyMineSwitchProps) {
  const [on, setOn] = useState(props.on);
  const { busy, message, run } = useAction();

  function change(next: boolean) {
    if (busy) return;
    setOn(next);
    run(async () => {
      try {
        await api("/api/me/services", { method: "PUT", auth: true, body: { onlyMine: next } });
        return {
          error: false,
          text: next
            ? "Saved. Your next set will only have movies you can stream on your services."
            : "Saved. Your next set may have movies from anywhere.",
        };
      } catch (error) {
        setOn(!next);
        return { error: true, text: error instanceof ApiError ? error.message : String(error) };
      }
    });
  }

  return (
    <div class="only-mine">
      <label class="switch">
        <input
          type="checkbox"
          name="onlyMine"
          checked={on}
          aria-describedby="only-mine-hint"
          onChange={(e) => change((e.target as HTMLInputElement).checked)}
        />
        Only what I can stream
      </label>
      <p class="hint" id="only-mine-hint">
        On {props.services.join(", ")} in{" "}
        {props.country}. Applies when you get or refresh recommendations.
      </p>
      <FormStatus message={message} />
    </div>
  );
}
