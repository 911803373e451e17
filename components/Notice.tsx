/** A message in the page flow: an error, or a neutral note such as an empty list. */
import type { ComponentChildren } from "preact";

/** `error` is announced at once (role=alert); notes are quiet. */
export function Notice(
  { kind = "note", children }: { kind?: "note" | "error"; children: ComponentChildren },
) {
  return (
    <div class={`notice notice-${kind}`} role={kind === "error" ? "alert" : undefined}>
      {children}
    </div>
  );
}
