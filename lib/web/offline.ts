/**
 * The browser's side of the installed app: registers the service worker (GET /sw.js) and
 * deletes this device's offline copies of a user's pages when the user signs out.
 */

const PAGES_PREFIX = "pages-";

/** Registers the service worker for the whole site; a browser without them just goes on. */
export function registerServiceWorker(): void {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error) =>
    console.warn("The offline copies are off: the service worker did not register", error)
  );
}

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
