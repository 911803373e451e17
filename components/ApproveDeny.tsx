/**
 * Approve and Deny for an app asking for access (islands/ActivateDevice.tsx, the device code;
 * islands/TraktConsent.tsx, the OAuth consent): while an answer is on its way both say so with
 * aria-disabled and ignore clicks, so they stay focusable for keyboard users.
 */

/** The two buttons; `onAnswer(true)` approves. */
export function ApproveDeny(
  { busy, onAnswer }: { busy: boolean; onAnswer: (approve: boolean) => void },
) {
  return (
    <p class="actions">
      <button
        type="button"
        class="button"
        aria-disabled={busy ? "true" : undefined}
        onClick={() => !busy && onAnswer(true)}
      >
        Approve
      </button>{" "}
      <button
        type="button"
        class="button button-secondary"
        aria-disabled={busy ? "true" : undefined}
        onClick={() => !busy && onAnswer(false)}
      >
        Deny
      </button>
    </p>
  );
}
