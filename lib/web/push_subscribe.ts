/**
 * Subscribing this browser to Web Push (docs/alerts.md, "Web Push"): ask for permission, subscribe
 * the service worker's registration with the server's VAPID key, and hand back the subscription
 * as `PushSubscription.toJSON()` gives it, for a webpush channel.
 */

/** Why this device was not subscribed, in words for the page. */
export class PushRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PushRefused";
  }
}

/** Whether this browser can receive Web Push here (an iPhone only in the installed app). */
export function pushSupported(): boolean {
  return typeof window !== "undefined" && "serviceWorker" in navigator &&
    "PushManager" in window && "Notification" in window;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const b64 = base64url.replaceAll("-", "+").replaceAll("_", "/");
  const padded = b64 + "=".repeat((4 - b64.length % 4) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

function sameKey(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/** A short name for this device, e.g. "Chrome on Android", for the channel's name. */
export function deviceName(): string {
  const ua = navigator.userAgent;
  const system = /Android/.test(ua)
    ? "Android"
    : /iPhone|iPad|iPod/.test(ua)
    ? "iOS"
    : /Mac OS X/.test(ua)
    ? "macOS"
    : /Windows/.test(ua)
    ? "Windows"
    : /Linux|CrOS/.test(ua)
    ? "Linux"
    : "this device";
  const browser = /Edg\//.test(ua)
    ? "Edge"
    : /Firefox\//.test(ua)
    ? "Firefox"
    : /Chrome\/|CriOS/.test(ua)
    ? "Chrome"
    : /Safari\//.test(ua)
    ? "Safari"
    : "Browser";
  return `${browser} on ${system}`;
}

/**
 * Asks for permission and subscribes with `publicKey` (base64url); a subscription this browser
 * already holds for the same key is reused, one for another key (the server's key changed) is
 * replaced. Throws PushRefused when the person or the browser says no.
 */
export async function subscribeThisDevice(publicKey: string): Promise<PushSubscriptionJSON> {
  const permission = await Notification.requestPermission();
  if (permission === "denied") {
    throw new PushRefused(
      "Notifications are blocked for this site. Allow them in the browser's site settings, " +
        "then try again.",
    );
  }
  if (permission !== "granted") throw new PushRefused("Notifications were not allowed.");
  // `ready` never settles where the worker could not register (a private window in some browsers).
  const registration = await Promise.race([
    navigator.serviceWorker.ready,
    new Promise<never>((_, reject) =>
      setTimeout(
        () =>
          reject(
            new PushRefused("The site's service worker is not running here, so it cannot notify."),
          ),
        10_000,
      )
    ),
  ]);
  const key = keyBytes(publicKey);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  try {
    subscription ??= await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: key,
    });
  } catch (error) {
    throw new PushRefused(
      `This browser could not subscribe to push messages (${(error as Error).message}).`,
    );
  }
  return subscription.toJSON();
}
