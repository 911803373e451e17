/**
 * The items of one of the user's lists on /lists/:id: reorder by keyboard (each item's "Move
 * up"/"Move down" buttons, focus staying on the moved item: at either end a button is marked
 * aria-disabled, never disabled, so focus is not dropped) or by dragging, edit an item's
 * note, remove it. Each change goes through the API; a move renumbers the list there.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { MoreLink } from "../components/MoreLink.tsx";
import type { ListCard } from "../lib/library/lists/sql.ts";
import { api } from "../lib/web/api.ts";
import { positionCursor } from "../lib/core/position_cursor.ts";
import { cardPosterUrl } from "../lib/web/poster.ts";
import { type NextPage, useMore } from "../lib/web/use_more.ts";

/** The list's id, its page of items (consecutive positions), the image root. */
interface ListEditorProps {
  listId: string;
  ranked: boolean;
  items: ListCard[];
  /** How many items the whole list has (a move past the page's end is allowed). */
  count: number;
  imageBaseUrl: string;
  /** The page after this one ("More"), absent on the last page. */
  more?: NextPage;
}

/** An ordered list of items with their controls, and a live status line. */
export default function ListEditor(props: ListEditorProps) {
  const [items, setItems] = useState(props.items);
  const [status, setStatus] = useState("");
  const [editing, setEditing] = useState<number | null>(null);
  const [draft, setDraft] = useState("");
  const dragged = useRef<number | null>(null);
  const focusAfter = useRef<string | null>(null);
  const first = props.items[0]?.position ?? 1;
  // "More" reads on from the last item shown, by its position now: a move or a removal above
  // it has renumbered the items not shown yet, so the page's own cursor could skip one.
  const more = useMore(props.more, {
    auth: true,
    take: (body) => body.movies as ListCard[],
    append(page) {
      const known = new Set(items.map((i) => i.catalogId));
      const added = page.filter((i) => !known.has(i.catalogId));
      setItems((all) => [...all, ...added]);
      return added;
    },
    focusOf: (m) => `[data-item="${m.catalogId}"] .list-item-body a`,
    say: (text) => setStatus(text),
    apiOf(next) {
      const last = items.at(-1);
      if (!last) return next.api;
      const read = new URL(next.api, "http://page.invalid");
      read.searchParams.set("cursor", positionCursor(last.position));
      return `${read.pathname}${read.search}`;
    },
  });

  useEffect(() => {
    if (!focusAfter.current) return;
    document.querySelector<HTMLElement>(focusAfter.current)?.focus();
    focusAfter.current = null;
  });

  const name = (m: ListCard) => m.title || `Movie #${m.catalogId}`;

  async function move(m: ListCard, to: number, focus?: string) {
    if (to < 1 || to > props.count || to === m.position) return;
    try {
      const { data } = await api<{ movie: ListCard }>(
        `/api/lists/${props.listId}/items/${m.catalogId}`,
        { method: "PATCH", body: { position: to }, auth: true },
      );
      const rest = items.filter((i) => i.catalogId !== m.catalogId);
      const at = data.movie.position - first;
      if (at >= 0 && at <= rest.length) rest.splice(at, 0, { ...m, position: data.movie.position });
      setItems(rest.map((i, k) => ({ ...i, position: first + k })));
      if (focus) focusAfter.current = `[data-item="${m.catalogId}"] .${focus}`;
      setStatus(`Moved “${name(m)}” to position ${data.movie.position}.`);
    } catch (error) {
      setStatus((error as Error).message);
    }
  }

  async function remove(m: ListCard) {
    try {
      await api(`/api/lists/${props.listId}/items/${m.catalogId}`, {
        method: "DELETE",
        auth: true,
      });
      setItems(
        items.filter((i) => i.catalogId !== m.catalogId).map((i, k) => ({
          ...i,
          position: first + k,
        })),
      );
      setStatus(`Removed “${name(m)}”.`);
    } catch (error) {
      setStatus((error as Error).message);
    }
  }

  async function saveNote(m: ListCard, e: Event) {
    e.preventDefault();
    try {
      const { data } = await api<{ movie: ListCard }>(
        `/api/lists/${props.listId}/items/${m.catalogId}`,
        { method: "PATCH", body: { note: draft.trim() ? draft : null }, auth: true },
      );
      setItems(items.map((i) => i.catalogId === m.catalogId ? { ...i, note: data.movie.note } : i));
      setEditing(null);
      setStatus(`Saved the note on “${name(m)}”.`);
    } catch (error) {
      setStatus((error as Error).message);
    }
  }

  return (
    <>
      <p class="muted">
        Drag a movie to reorder, or use its Move up and Move down buttons.
      </p>
      <ol class="list-items" start={first}>
        {items.map((m) => (
          <li
            key={m.catalogId}
            data-item={m.catalogId}
            class="list-item"
            draggable
            onDragStart={() => dragged.current = m.catalogId}
            onDragOver={(e) => e.preventDefault()}
            onDrop={(e) => {
              e.preventDefault();
              const from = items.find((i) => i.catalogId === dragged.current);
              dragged.current = null;
              if (from) move(from, m.position);
            }}
          >
            <span class="list-item-position" aria-hidden="true">
              {props.ranked ? `#${m.position}` : "⋮⋮"}
            </span>
            {m.posterPath
              ? (
                <img
                  class="list-item-poster"
                  src={cardPosterUrl(props.imageBaseUrl, m.posterPath, "w92")}
                  alt=""
                  loading="lazy"
                />
              )
              : <span class="list-item-poster" aria-hidden="true" />}
            <div class="list-item-body">
              <a href={`/movies/${m.catalogId}`}>{name(m)}</a>
              {m.year ? <span class="muted">{` (${m.year})`}</span> : null}
              {editing === m.catalogId
                ? (
                  <form class="list-item-note-form" onSubmit={(e) => saveNote(m, e)}>
                    <label for={`note-${m.catalogId}`}>Note on {name(m)}</label>
                    <textarea
                      id={`note-${m.catalogId}`}
                      maxLength={500}
                      value={draft}
                      onInput={(e) => setDraft((e.target as HTMLTextAreaElement).value)}
                    />
                    <button type="submit" class="button">Save note</button>
                    <button type="button" class="button secondary" onClick={() => setEditing(null)}>
                      Cancel
                    </button>
                  </form>
                )
                : m.note
                ? <p class="list-item-note">{m.note}</p>
                : null}
            </div>
            <div class="list-item-actions">
              <button
                type="button"
                class="move-up"
                aria-label={`Move “${name(m)}” up`}
                aria-disabled={m.position <= 1 ? "true" : undefined}
                onClick={() => move(m, m.position - 1, "move-up")}
              >
                ↑
              </button>
              <button
                type="button"
                class="move-down"
                aria-label={`Move “${name(m)}” down`}
                aria-disabled={m.position >= props.count ? "true" : undefined}
                onClick={() => move(m, m.position + 1, "move-down")}
              >
                ↓
              </button>
              <button
                type="button"
                aria-label={`Note on “${name(m)}”`}
                onClick={() => {
                  setDraft(m.note ?? "");
                  setEditing(m.catalogId);
                }}
              >
                Note
              </button>
              <button type="button" aria-label={`Remove “${name(m)}”`} onClick={() => remove(m)}>
                Remove
              </button>
            </div>
          </li>
        ))}
      </ol>
      <p class="form-status" role="status" aria-live="polite">{status}</p>
      <MoreLink more={more} />
    </>
  );
}
