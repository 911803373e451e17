/**
 * The share dialog of /lists/:id: make a read-only link (a private list becomes unlisted),
 * copy it, replace it (the old link stops working) or stop sharing (the list is private again).
 */
import { useRef, useState } from "preact/hooks";
import { api } from "../lib/web/api.ts";

/** The list and its current link, if any. */
interface ShareDialogProps {
  listId: string;
  shareUrl: string | null;
}

/** A "Share" button opening a modal dialog. */
export default function ShareDialog(props: ShareDialogProps) {
  const [url, setUrl] = useState(props.shareUrl);
  const [status, setStatus] = useState("");
  const dialog = useRef<HTMLDialogElement>(null);

  async function share() {
    try {
      const { data } = await api<{ shareUrl: string }>(`/api/lists/${props.listId}/share`, {
        method: "POST",
        auth: true,
      });
      setUrl(data.shareUrl);
      setStatus(url ? "A new link is ready; the old one no longer works." : "The link is ready.");
    } catch (error) {
      setStatus((error as Error).message);
    }
  }

  async function revoke() {
    try {
      await api(`/api/lists/${props.listId}/share`, { method: "DELETE", auth: true });
      setUrl(null);
      setStatus("Sharing stopped: the link no longer works and the list is private.");
    } catch (error) {
      setStatus((error as Error).message);
    }
  }

  async function copy() {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setStatus("Link copied.");
    } catch {
      document.querySelector<HTMLInputElement>("#share-url")?.select();
      setStatus("Select the link and copy it.");
    }
  }

  return (
    <>
      <button type="button" class="button" onClick={() => dialog.current?.showModal()}>
        Share…
      </button>
      <dialog ref={dialog} class="share-dialog" aria-labelledby="share-title">
        <h2 id="share-title">Share this list</h2>
        {url
          ? (
            <>
              <label for="share-url">Anyone with this link can see the list (read only)</label>
              <input id="share-url" type="text" readOnly value={url} />
              <div class="share-actions">
                <button type="button" class="button" onClick={copy}>Copy link</button>
                <button type="button" class="button secondary" onClick={share}>New link</button>
                <button type="button" class="button danger" onClick={revoke}>Stop sharing</button>
              </div>
            </>
          )
          : (
            <>
              <p>The list is private. A link lets anyone who has it see the list, not change it.</p>
              <button type="button" class="button" onClick={share}>Create link</button>
            </>
          )}
        <p class="form-status" role="status" aria-live="polite">{status}</p>
        <form method="dialog">
          <button type="submit" class="button secondary">Close</button>
        </form>
      </dialog>
    </>
  );
}
