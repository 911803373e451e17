/**
 * Deleting the account: `DELETE /api/account` with the typed confirmation, then this browser's
 * session goes too (the server already refuses its token) and the visitor lands home.
 */
import { useState } from "preact/hooks";
import { api, ApiError } from "../lib/web/api.ts";
import { signOut } from "../lib/web/sign_out.ts";

/** `confirmation`: the words to type, as the API requires them (lib/identity/auth/delete_account.ts). */
export default function DeleteAccount({ confirmation }: { confirmation: string }) {
  const [typed, setTyped] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const confirmed = typed.trim().toLowerCase() === confirmation;

  async function submit(event: Event) {
    event.preventDefault();
    // Never disabled (keyboard focus would fall to the page): a press while deleting does
    // nothing, one before the words are typed says what is missing.
    if (busy) return;
    if (!confirmed) {
      setError(`Type "${confirmation}" in the box above to delete the account.`);
      return;
    }
    setBusy(true);
    setError("");
    try {
      await api("/api/account", {
        method: "DELETE",
        body: { confirm: confirmation },
        auth: true,
      });
    } catch (failure) {
      setError(
        failure instanceof ApiError ? failure.message : "The account could not be deleted.",
      );
      setBusy(false);
      return;
    }
    // Local only: the server has no session of this user left to end.
    await signOut({ scope: "local" }).catch(() => {});
    location.assign("/?notice=account-deleted");
  }

  return (
    <form class="form" method="post" onSubmit={submit}>
      <p class="status status-error" role="status">{error}</p>
      <div class="field">
        <label for="delete-confirm">
          Type <strong>{confirmation}</strong> to confirm
        </label>
        <input
          id="delete-confirm"
          type="text"
          autocomplete="off"
          spellcheck={false}
          value={typed}
          onInput={(e) => setTyped(e.currentTarget.value)}
        />
      </div>
      <button
        type="submit"
        class="button button-danger"
        aria-disabled={busy || !confirmed ? "true" : undefined}
      >
        {busy ? "Deleting…" : "Delete my account"}
      </button>
    </form>
  );
}
