/**
 * A fake Apprise API on 127.0.0.1, built from caronc/apprise-api's README: `POST /notify/{KEY}`
 * (KEY 1-64 of `A-Za-z0-9_-`) with JSON (`Content-Type: application/json`) `body` (required),
 * `title`, `type` (`info`, `success`, `warning`, `failure`), `tag`, `format`; 200 when the
 * key's services were notified, 204 when the key holds no configuration, 400 for a body without
 * `body` or with another type.
 */
import { type FakeBehaviour, startFakeReceiver } from "./fake_receiver.ts";

/** A notification the fake passed on. */
interface AppriseNotification {
  key: string;
  title?: string;
  body: string;
  type: string;
}

/** A running fake Apprise API with one configured key. */
interface FakeApprise extends FakeBehaviour, AsyncDisposable {
  url: string;
  /** The notify URL of the configured key. */
  notifyUrl: string;
  notifications: AppriseNotification[];
  close(): Promise<void>;
}

const TYPES = ["info", "success", "warning", "failure"];

/** Starts the fake Apprise API. */
export function startFakeApprise(options: { key?: string } = {}): FakeApprise {
  const key = options.key ?? "movies";
  const fake = startFakeReceiver(async (request, url) => {
    const match = url.pathname.match(/^\/notify\/([A-Za-z0-9_-]{1,64})$/);
    if (request.method !== "POST" || !match) return new Response("Not Found", { status: 404 });
    if (!/application\/json/.test(request.headers.get("content-type") ?? "")) {
      return new Response("Unsupported format", { status: 400 });
    }
    const body = await request.json().catch(() => undefined);
    if (!body || typeof body.body !== "string" || !body.body) {
      return new Response("An invalid payload was specified.", { status: 400 });
    }
    const type = body.type ?? "info";
    if (!TYPES.includes(type)) {
      return new Response("An invalid notification type was specified.", { status: 400 });
    }
    if (match[1] !== key) return new Response(null, { status: 204 });
    fake.notifications.push({ key: match[1], title: body.title, body: body.body, type });
    return new Response("Notification(s) sent.", { status: 200 });
  }) as FakeApprise;
  fake.notifyUrl = `${fake.url}/notify/${key}`;
  fake.notifications = [];
  return fake;
}
