/** A form's status line: announced politely by screen readers, red when it is an error. */
import type { FormMessage } from "../lib/web/use_action.ts";

/** The line, empty until there is something to say. */
export function FormStatus({ message }: { message: FormMessage | null }) {
  return (
    <p class={`status ${message?.error ? "status-error" : ""}`} role="status">
      {message?.text}
    </p>
  );
}
