/**
 * "Add to list" on the movie page and on cards: opens a small panel listing the user's own
 * lists (read when opened) to add the movie to, or a name to create a new list with it.
 */
import { useState } from "preact/hooks";
import type { ListSummary } from "../lib/library/lists/sql.ts";
import { api, ApiError } from "../lib/web/api.ts";

/** The movie to add. */
interface AddToListProps {
  catalogId: number;
  title: string;
  /** On a card: a small button whose name says which movie. */
  compact?: boolean;
}

type Message = { kind: "ok" | "error"; text: string } | null;

/** A disclosure button and its panel. */
export default function AddToList({ catalogId, title, compact }: AddToListProps) {
  const [open, setOpen] = useState(false);
  const [lists, setLists] = useState<ListSummary[] | null>(null);
  const [choice, setChoice] = useState("");
  const [name, setName] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const movie = title || "this movie";
  const panelId = `add-to-list-${catalogId}`;

  async function toggle() {
    const next = !open;
    setOpen(next);
    if (!next || lists !== null) return;
    try {
      const { data } = await api<{ lists: ListSummary[] }>("/api/lists", { auth: true });
      setLists(data.lists);
      setChoice(data.lists[0]?.id ?? "");
    } catch (error) {
      setMessage({ kind: "error", text: (error as Error).message });
    }
  }

  async function add(list: ListSummary) {
    try {
      await api(`/api/lists/${list.id}/items`, { method: "POST", body: { catalogId }, auth: true });
      setMessage({ kind: "ok", text: `Added “${movie}” to ${list.name}.` });
    } catch (error) {
      const text = error instanceof ApiError && error.code === "already_in_list"
        ? `“${movie}” is already in ${list.name}.`
        : (error as Error).message;
      setMessage({ kind: "error", text });
    }
  }

  async function run(fn: () => Promise<void>) {
    if (busy) return;
    setBusy(true);
    setMessage(null);
    try {
      await fn();
    } finally {
      setBusy(false);
    }
  }

  const onAdd = (e: Event) => {
    e.preventDefault();
    const list = lists?.find((l) => l.id === choice);
    if (list) run(() => add(list));
  };

  const onCreate = (e: Event) => {
    e.preventDefault();
    if (!name.trim()) return;
    run(async () => {
      try {
        const { data } = await api<{ list: ListSummary }>("/api/lists", {
          method: "POST",
          body: { name: name.trim() },
          auth: true,
        });
        setLists([data.list, ...(lists ?? [])]);
        setChoice(data.list.id);
        setName("");
        await add(data.list);
      } catch (error) {
        setMessage({ kind: "error", text: (error as Error).message });
      }
    });
  };

  return (
    <div class="add-to-list">
      <button
        type="button"
        class={compact ? "button button-small button-quiet" : "button"}
        aria-expanded={open}
        aria-controls={panelId}
        aria-label={compact ? `Add to list: ${movie}` : undefined}
        onClick={toggle}
      >
        Add to list
      </button>
      <div id={panelId} class="add-to-list-panel" hidden={!open}>
        {lists === null ? <p>Loading your lists…</p> : null}
        {lists && lists.length > 0
          ? (
            <form onSubmit={onAdd} class="add-to-list-row">
              <label for={`${panelId}-pick`}>List</label>
              <select
                id={`${panelId}-pick`}
                value={choice}
                onChange={(e) => setChoice((e.target as HTMLSelectElement).value)}
              >
                {lists.map((l) => <option key={l.id} value={l.id}>{l.name}</option>)}
              </select>
              <button type="submit" class="button">Add</button>
            </form>
          )
          : null}
        <form onSubmit={onCreate} class="add-to-list-row">
          <label for={`${panelId}-new`}>New list</label>
          <input
            id={`${panelId}-new`}
            type="text"
            maxLength={100}
            value={name}
            placeholder="For a rainy Sunday"
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
          <button type="submit" class="button">Create and add</button>
        </form>
      </div>
      <p class={`form-status ${message?.kind ?? ""}`} role="status" aria-live="polite">
        {message?.text ?? ""}
      </p>
    </div>
  );
}
