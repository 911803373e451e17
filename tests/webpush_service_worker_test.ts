/**
 * The service worker's Web Push handlers (lib/web/pwa/sw_source.js; docs/alerts.md, "Web Push"),
 * run as the script GET /sw.js serves, against a stand-in for the worker's global scope: `push`
 * shows the message, `notificationclick` focuses the movie's window or opens it, on this origin.
 */
import assert from "node:assert/strict";
import { serviceWorkerScript } from "@/lib/web/pwa/service_worker.ts";

interface Shown {
  title: string;
  options: Record<string, unknown> & { data: { url: string } };
}

interface FakeWindow {
  url: string;
  focused: boolean;
  focus(): Promise<FakeWindow>;
}

// deno-lint-ignore no-explicit-any
type Handler = (event: any) => void;

async function worker(windows: string[] = []) {
  const handlers = new Map<string, Handler>();
  const shown: Shown[] = [];
  const opened: string[] = [];
  const clients: FakeWindow[] = windows.map((url): FakeWindow => ({
    url,
    focused: false,
    focus() {
      this.focused = true;
      return Promise.resolve(this);
    },
  }));
  const self = {
    location: new URL("https://movies.example/sw.js"),
    addEventListener: (type: string, handler: Handler) => handlers.set(type, handler),
    registration: {
      showNotification: (title: string, options: Shown["options"]) => {
        shown.push({ title, options });
        return Promise.resolve();
      },
    },
    clients: {
      matchAll: () => Promise.resolve(clients),
      openWindow: (url: string) => {
        opened.push(url);
        return Promise.resolve(null);
      },
      claim: () => Promise.resolve(),
    },
    skipWaiting: () => Promise.resolve(),
  };
  const script = await serviceWorkerScript({ assetUrl: (f) => `/static/${f}`, islands: [] });
  new Function("self", "caches", script)(self, {});
  const dispatch = async (type: string, event: Record<string, unknown>) => {
    const waits: Promise<unknown>[] = [];
    handlers.get(type)!({ ...event, waitUntil: (p: Promise<unknown>) => waits.push(p) });
    await Promise.all(waits);
  };
  const push = (body: string | null) =>
    dispatch("push", {
      data: body === null ? null : { json: () => JSON.parse(body), text: () => body },
    });
  const click = async (data: unknown) => {
    let closed = false;
    await dispatch("notificationclick", { notification: { data, close: () => (closed = true) } });
    return closed;
  };
  return { shown, opened, clients, push, click };
}

const PAYLOAD = {
  title: "Dune (2021) is in theaters",
  body: "In theaters in DE from 22 Nov 2026.",
  url: "https://movies.example/movies/438631",
  icon: "https://movies.example/static/icons/icon-192.png",
  image: "https://image.tmdb.org/t/p/w342/dune.jpg",
  tag: "in_theaters-438631",
};

Deno.test("The service worker shows a push message with its title, body, icon, poster and tag", async () => {
  const w = await worker();
  await w.push(JSON.stringify(PAYLOAD));
  assert.equal(w.shown.length, 1);
  assert.equal(w.shown[0].title, PAYLOAD.title);
  assert.equal(w.shown[0].options.body, PAYLOAD.body);
  assert.equal(w.shown[0].options.icon, PAYLOAD.icon);
  assert.equal(w.shown[0].options.image, PAYLOAD.image);
  assert.equal(w.shown[0].options.tag, PAYLOAD.tag);
  assert.equal(w.shown[0].options.data.url, "/movies/438631");
});

Deno.test("A push that is not the server's JSON is still shown, as text under the app's name", async () => {
  const w = await worker();
  await w.push("plain words");
  await w.push(null);
  assert.equal(w.shown[0].title, "Movies");
  assert.equal(w.shown[0].options.body, "plain words");
  assert.equal(w.shown[0].options.icon, "/static/icons/icon-192.png");
  assert.equal("tag" in w.shown[0].options, false);
  assert.equal(w.shown[1].title, "Movies");
  assert.equal(w.shown[1].options.data.url, "/notifications");
});

Deno.test("A tap on the notification opens the movie's page when no window shows it", async () => {
  const w = await worker(["https://movies.example/mylist"]);
  await w.push(JSON.stringify(PAYLOAD));
  const closed = await w.click(w.shown[0].options.data);
  assert.equal(closed, true);
  assert.deepEqual(w.opened, ["https://movies.example/movies/438631"]);
  assert.equal(w.clients[0].focused, false);
});

Deno.test("A tap focuses the window already on the movie's page instead of opening another", async () => {
  const w = await worker(["https://movies.example/mylist", "https://movies.example/movies/438631"]);
  await w.push(JSON.stringify(PAYLOAD));
  await w.click(w.shown[0].options.data);
  assert.deepEqual(w.opened, []);
  assert.equal(w.clients[1].focused, true);
  assert.equal(w.clients[0].focused, false);
});

Deno.test("A message naming another host opens only its path on the app's own origin", async () => {
  const w = await worker();
  await w.push(JSON.stringify({ ...PAYLOAD, url: "https://elsewhere.example/movies/1?x=1#y" }));
  await w.click(w.shown[0].options.data);
  assert.deepEqual(w.opened, ["https://movies.example/movies/1?x=1#y"]);
  await w.click(undefined);
  assert.equal(w.opened[1], "https://movies.example/notifications");
});
