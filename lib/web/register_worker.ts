/**
 * Registers the installed app's service worker (GET /sw.js, scope `/`). Built alone into the
 * `_worker` entry (scripts/build.ts) that every page loads, a few hundred bytes that import
 * nothing, so the first page a visitor sees (the signed-out home page, which has no island)
 * already installs the offline shell.
 */

/** Registers the worker for the whole site; a browser without service workers just goes on. */
export function registerServiceWorker(): void {
  if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch((error) =>
    console.warn("The offline copies are off: the service worker did not register", error)
  );
}
