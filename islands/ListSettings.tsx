/** The settings of a list on /lists/:id: name, description, who may see it, ranked; delete. */
import { useState } from "preact/hooks";
import type { ListSummary } from "../lib/library/lists/sql.ts";
import { api } from "../lib/web/api.ts";

/** The list as the server read it. */
interface ListSettingsProps {
  list: ListSummary;
}

/** A disclosure with the form. */
export default function ListSettings({ list }: ListSettingsProps) {
  const [fields, setFields] = useState({
    name: list.name,
    description: list.description,
    visibility: list.visibility,
    ranked: list.ranked,
  });
  const [status, setStatus] = useState("");

  async function save(e: Event) {
    e.preventDefault();
    try {
      await api(`/api/lists/${list.id}`, { method: "PATCH", body: fields, auth: true });
      location.reload();
    } catch (error) {
      setStatus((error as Error).message);
    }
  }

  async function remove() {
    if (!confirm(`Delete “${list.name}” and its share link? This cannot be undone.`)) return;
    try {
      await api(`/api/lists/${list.id}`, { method: "DELETE", auth: true });
      location.assign("/lists");
    } catch (error) {
      setStatus((error as Error).message);
    }
  }

  const set = (key: keyof typeof fields) => (e: Event) => {
    const el = e.target as HTMLInputElement;
    setFields({ ...fields, [key]: el.type === "checkbox" ? el.checked : el.value });
  };

  return (
    <details class="list-settings">
      <summary>Edit list</summary>
      <form onSubmit={save}>
        <label for="list-name">Name</label>
        <input id="list-name" required maxLength={100} value={fields.name} onInput={set("name")} />
        <label for="list-description">Description</label>
        <textarea
          id="list-description"
          maxLength={2000}
          value={fields.description}
          onInput={set("description")}
        />
        <label for="list-visibility">Who can see it</label>
        <select id="list-visibility" value={fields.visibility} onChange={set("visibility")}>
          <option value="private">Only me</option>
          <option value="unlisted">Anyone with the link</option>
          <option value="public">Public (also on my profile)</option>
        </select>
        <label class="check">
          <input type="checkbox" checked={fields.ranked} onChange={set("ranked")} /> Ranked
        </label>
        <button type="submit" class="button">Save</button>
        <button type="button" class="button danger" onClick={remove}>Delete list</button>
        <p class="form-status" role="status" aria-live="polite">{status}</p>
      </form>
    </details>
  );
}
