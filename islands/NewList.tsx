/** The /lists page's form: a name (and whether it is ranked) makes a new list, then opens it. */
import { useState } from "preact/hooks";
import type { ListSummary } from "../lib/library/lists/sql.ts";
import { api } from "../lib/web/api.ts";

/** A one-field form. */
export default function NewList() {
  const [name, setName] = useState("");
  const [ranked, setRanked] = useState(false);
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  async function onSubmit(e: Event) {
    e.preventDefault();
    if (busy || !name.trim()) return;
    setBusy(true);
    setError("");
    try {
      const { data } = await api<{ list: ListSummary }>("/api/lists", {
        method: "POST",
        body: { name: name.trim(), ranked },
        auth: true,
      });
      location.assign(`/lists/${data.list.id}`);
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  }

  return (
    <form class="new-list" onSubmit={onSubmit}>
      <label for="new-list-name">New list</label>
      <input
        id="new-list-name"
        type="text"
        required
        maxLength={100}
        value={name}
        placeholder="Best of 2024"
        onInput={(e) => setName((e.target as HTMLInputElement).value)}
      />
      <label class="check">
        <input
          type="checkbox"
          checked={ranked}
          onChange={(e) => setRanked((e.target as HTMLInputElement).checked)}
        />{" "}
        Ranked
      </label>
      <button type="submit" class="button">Create list</button>
      <p class="form-status error" role="status" aria-live="polite">{error}</p>
    </form>
  );
}
