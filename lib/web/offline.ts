/**
 * The browser's side of the installed app on sign-out: deletes this device's offline copies of
 * a user's pages. (Every page registers the worker itself: ./register_worker.ts.)
 */

const PAGES_PREFIX = "pages-";

/** Deletes every offline copy of a signed-in page on this device (sign-out, account deletion). */
export async function forgetOfflineCopies(): Promise<void> {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  try {
    navigator.serviceWorker.controller?.postMessage({ type: "signed-out" });
    for (const key of await caches.keys()) {
      if (key.startsWith(PAGES_PREFIX)) await caches.delete(key);
    }
  } catch (error) {
    console.warn("Offline copies could not be deleted", error);
  }
}
