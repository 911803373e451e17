// The service worker (/sw.js). lib/web/pwa/service_worker.ts serves this file with two constants
// in front of it: VERSION (changes with every build of the shell) and PRECACHE (the shell's
// URLs). docs/website.md, "Installable app", has the rules it keeps:
// - the shell (styles, islands bundle, icons, the offline page) is precached per build, and a
//   new build's worker replaces the old one and deletes the old shell;
// - pages go to the network first; the last copy of a signed-in user's list pages is kept in
//   a cache of that user's own and shown offline with the time it was saved;
// - API answers are never kept, and one user's copies are deleted as soon as a page answers
//   for anyone else (or for nobody: signed out), so they are never shown to another user.
// - a Web Push message (docs/alerts.md, "Web Push") is shown as a notification, and a tap on it
//   focuses a window already on its movie page or opens one, always on this site's own origin.
/* global VERSION, PRECACHE */

const SHELL = `shell-${VERSION}`;
const PAGES_PREFIX = "pages-";
const META = "meta";
const SCOPE_KEY = "/__offline_scope";
const OFFLINE_URL = "/offline";
const OFFLINE_PAGES = /^\/(?:watched|mylist|diary|lists)(?:\/|$)/;

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(SHELL);
    // Without credentials: the shell and the offline page are the same for everyone.
    await cache.addAll(PRECACHE.map((url) => new Request(url, { credentials: "omit" })));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith("shell-") && key !== SHELL) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

self.addEventListener("message", (event) => {
  const type = event.data && event.data.type;
  if (type === "signed-out") event.waitUntil(keepOnlyScope(null));
  if (type === "version" && event.source) {
    event.source.postMessage({ type: "version", version: VERSION });
  }
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(shellFirst(request));
  } else if (request.mode === "navigate") {
    event.respondWith(networkFirst(event, url));
  }
  // Everything else (the API above all) goes to the network as if there were no worker.
});

self.addEventListener("push", (event) => {
  event.waitUntil(showPush(event.data));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const data = event.notification.data || {};
  event.waitUntil(openPage(data.url));
});

// The server's JSON (lib/catalog/notifications/web_push/payload.ts): title, body, url, icon,
// image, tag. A message that is not that JSON is still shown, as its text, under the app's name.
async function showPush(data) {
  let message = {};
  try {
    message = data ? data.json() : {};
  } catch {
    message = { body: data ? data.text() : "" };
  }
  const text = (value) => (typeof value === "string" ? value : "");
  const options = {
    body: text(message.body),
    icon: text(message.icon) || "/static/icons/icon-192.png",
    badge: "/static/icons/icon-192.png",
    data: { url: sitePath(message.url) },
  };
  if (text(message.tag)) options.tag = message.tag;
  if (text(message.image)) options.image = message.image;
  await self.registration.showNotification(text(message.title) || "Movies", options);
}

// Only a path on this origin is ever opened: the message's URL is read for its path (SITE_URL
// may name another host than the one the app was installed from), never followed elsewhere.
function sitePath(url) {
  if (typeof url !== "string" || !url) return "/notifications";
  try {
    const parsed = new URL(url, self.location.origin);
    return parsed.pathname + parsed.search + parsed.hash;
  } catch {
    return "/notifications";
  }
}

async function openPage(path) {
  const target = new URL(sitePath(path), self.location.origin).href;
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows.find((client) => client.url === target);
  if (open) return await open.focus();
  return await self.clients.openWindow(target);
}

async function shellFirst(request) {
  const cached = await caches.match(request, { cacheName: SHELL });
  return cached || fetch(request);
}

async function networkFirst(event, url) {
  let response;
  try {
    response = await fetch(event.request);
  } catch {
    return await offlineCopy(url) || await offlinePage();
  }
  const scope = response.headers.get("x-offline-scope");
  event.waitUntil(remember(response.clone(), url, scope));
  return response;
}

// Keeps the copy of a list page for its user, after dropping every other user's copies.
async function remember(response, url, scope) {
  await keepOnlyScope(scope);
  if (!scope || !response.ok || !OFFLINE_PAGES.test(url.pathname)) return;
  const headers = new Headers(response.headers);
  headers.set("x-offline-saved-at", new Date().toISOString());
  const copy = new Response(await response.arrayBuffer(), { status: 200, headers });
  await (await caches.open(PAGES_PREFIX + scope)).put(url.pathname + url.search, copy);
}

// The signed-in user's scope is remembered, and every other scope's copies are deleted.
async function keepOnlyScope(scope) {
  const meta = await caches.open(META);
  const known = await meta.match(SCOPE_KEY);
  const current = known ? await known.text() : "";
  if (current === (scope || "")) return;
  for (const key of await caches.keys()) {
    if (key.startsWith(PAGES_PREFIX) && key !== PAGES_PREFIX + scope) await caches.delete(key);
  }
  await meta.put(SCOPE_KEY, new Response(scope || ""));
}

async function offlineCopy(url) {
  const known = await (await caches.open(META)).match(SCOPE_KEY);
  const scope = known ? await known.text() : "";
  if (!scope) return undefined;
  const pages = await caches.open(PAGES_PREFIX + scope);
  const copy = await pages.match(url.pathname + url.search) ||
    await pages.match(url.pathname);
  if (!copy) return undefined;
  const savedAt = copy.headers.get("x-offline-saved-at") || "";
  const when = savedAt
    ? new Date(savedAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })
    : "earlier";
  const notice = `<p class="offline-notice" role="status">Offline copy from ` +
    `<time datetime="${savedAt}">${when}</time>. You are offline: this is the page as it ` +
    `was then, and changes cannot be saved until you are back online.</p>`;
  const html = (await copy.text()).replace(/(<main\b[^>]*>)/, `$1${notice}`);
  return new Response(html, { status: 200, headers: copy.headers });
}

async function offlinePage() {
  const page = await caches.match(OFFLINE_URL, { cacheName: SHELL });
  return page || new Response("You are offline.", {
    status: 503,
    headers: { "content-type": "text/plain; charset=utf-8" },
  });
}
