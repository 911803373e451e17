/**
 * A fake ntfy server on 127.0.0.1, built from ntfy's publishing docs (docs.ntfy.sh/publish):
 * `POST` or `PUT /<topic>` (1-64 of `A-Za-z0-9_-`) with the message as the body; `Title`/`X-Title`,
 * `Click`/`X-Click`, `Tags`/`X-Tags` (comma list) and `Priority` headers, RFC 2047 encoded words
 * in them decoded; with an access token configured, `Authorization: Bearer <token>` or 401
 * `{"code":40101,"http":401,"error":"unauthorized"}`; answers 200 with the message as JSON
 * (`id`, `time`, `event: "message"`, `topic`, `message`, `title`, `tags`, `click`).
 */
import { type FakeBehaviour, startFakeReceiver } from "./fake_receiver.ts";

/** A message the fake published. */
interface NtfyMessage {
  topic: string;
  message: string;
  title?: string;
  click?: string;
  tags: string[];
  authorization: string | null;
}

/** A running fake ntfy; `topicUrl` is what a user saves. */
interface FakeNtfy extends FakeBehaviour, AsyncDisposable {
  url: string;
  topicUrl(topic: string): string;
  messages: NtfyMessage[];
  /** Requests received in all, refused ones included. */
  received: number;
  /** The access token publishing needs; open when unset. */
  token?: string;
  close(): Promise<void>;
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?B?...?=`, `=?UTF-8?Q?...?=`) as ntfy does. */
function decodeWords(value: string): string {
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=/gi, (_, enc: string, text: string) => {
    const bytes = enc.toLowerCase() === "b"
      ? Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
      : new TextEncoder().encode(
        text.replace(/_/g, " ").replace(/=([0-9a-f]{2})/gi, (_m, h) =>
          String.fromCharCode(parseInt(h, 16))),
      );
    return new TextDecoder().decode(bytes);
  });
}

/** Starts the fake ntfy. */
export function startFakeNtfy(options: { token?: string } = {}): FakeNtfy {
  const messages: NtfyMessage[] = [];
  const header = (r: Request, name: string) => {
    const v = r.headers.get(name) ?? r.headers.get(`x-${name}`);
    return v === null ? undefined : decodeWords(v);
  };
  const fake: FakeNtfy = startFakeReceiver(async (request, url) => {
    fake.received++;
    const topic = url.pathname.slice(1);
    if (!/^[-_A-Za-z0-9]{1,64}$/.test(topic) || !["POST", "PUT"].includes(request.method)) {
      return Response.json({ code: 40401, http: 404, error: "page not found" }, { status: 404 });
    }
    const authorization = request.headers.get("authorization");
    if (fake.token && authorization !== `Bearer ${fake.token}`) {
      return Response.json({ code: 40101, http: 401, error: "unauthorized" }, { status: 401 });
    }
    const message: NtfyMessage = {
      topic,
      message: await request.text(),
      title: header(request, "title"),
      click: header(request, "click"),
      tags: (header(request, "tags") ?? "").split(",").map((t) => t.trim()).filter(Boolean),
      authorization,
    };
    messages.push(message);
    return Response.json({
      id: crypto.randomUUID().slice(0, 12),
      time: Math.floor(Date.now() / 1000),
      event: "message",
      topic,
      message: message.message,
      title: message.title,
      tags: message.tags,
      click: message.click,
    });
  }) as FakeNtfy;
  fake.messages = messages;
  fake.received = 0;
  fake.token = options.token;
  fake.topicUrl = (topic) => `${fake.url}/${topic}`;
  return fake;
}
