/** Hands a link on: the installed app's share sheet where there is one, else the clipboard. */

/** Shares `url`; what to tell the user ("" when the share sheet took it). */
export async function shareLink(url: string, text = "Pick a film with me"): Promise<string> {
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title: "Movie night", text, url });
      return "";
    } catch (error) {
      // Closed by the user: nothing to say. Refused (no activation left): the clipboard below.
      if ((error as Error).name === "AbortError") return "";
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    return "Link copied: send it to the others.";
  } catch {
    return `Send the others this link: ${url}`;
  }
}
