/** A movie night's "Invite people" (islands/NightVote.tsx). */
import { useState } from "preact/hooks";
import { shareLink } from "../lib/web/share_link.ts";

/**
 * Shares the page's own link (the join link it was opened by; anyone who came by it may pass it
 * on, latecomers included) through the share sheet or a copy.
 */
export function NightInvite() {
  const [said, setSaid] = useState("");
  const url = typeof location === "undefined" ? "" : location.href;
  if (!url.includes("token=")) return null;
  return (
    <p>
      <button type="button" class="link-button" onClick={() => shareLink(url).then(setSaid)}>
        Invite people
      </button>{" "}
      <span role="status">{said}</span>
    </p>
  );
}
