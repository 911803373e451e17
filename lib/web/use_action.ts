/** A form's busy flag and its one status line, shared by the account and sign-in islands. */
import { useState } from "preact/hooks";

/** What a form's status line says: a result, or an error. */
export interface FormMessage {
  error: boolean;
  text: string;
}

/**
 * `busy` and `message` of a form, and `run`, which clears the message, marks the form busy
 * while `action` runs and shows the message it returns (nothing when it returns none).
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<FormMessage | null>(null);
  async function run(action: () => Promise<FormMessage | null | void>): Promise<void> {
    setBusy(true);
    setMessage(null);
    try {
      const said = await action();
      if (said) setMessage(said);
    } finally {
      setBusy(false);
    }
  }
  return { busy, message, setMessage, run };
}
