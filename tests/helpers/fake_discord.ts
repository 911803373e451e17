/**
 * A fake Discord on 127.0.0.1, built from Discord's "Execute Webhook" docs: `POST
 * /api/webhooks/{webhook.id}/{webhook.token}` with a JSON body that has `content` or `embeds`
 * (at most 10; an embed's title at most 256 characters, description 4,096, `url` and
 * `thumbnail.url` http(s) URLs); 204 without `?wait=true`; an unknown webhook 404
 * `{"message":"Unknown Webhook","code":10015}`, an empty message 400 `{"code":50006}`, a body that
 * breaks the limits 400 `{"code":50035,"message":"Invalid Form Body"}`.
 */
import { type FakeBehaviour, startFakeReceiver } from "./fake_receiver.ts";

/** One embed as received. */
interface DiscordEmbed {
  title?: string;
  description?: string;
  url?: string;
  timestamp?: string;
  thumbnail?: { url: string };
}

/** A running fake Discord with one webhook. */
interface FakeDiscord extends FakeBehaviour, AsyncDisposable {
  url: string;
  /** The webhook's URL (what a user pastes). */
  webhookUrl: string;
  /** The messages posted: their embeds. */
  posts: { content?: string; embeds: DiscordEmbed[] }[];
  close(): Promise<void>;
}

const httpUrl = (v: unknown) => typeof v === "string" && /^https?:\/\/\S+$/.test(v);

function invalidEmbed(e: DiscordEmbed): boolean {
  return (e.title !== undefined && (typeof e.title !== "string" || e.title.length > 256)) ||
    (e.description !== undefined &&
      (typeof e.description !== "string" || e.description.length > 4096)) ||
    (e.url !== undefined && !httpUrl(e.url)) ||
    (e.thumbnail !== undefined && !httpUrl(e.thumbnail?.url));
}

/** Starts the fake Discord. */
export function startFakeDiscord(): FakeDiscord {
  const id = "112233445566778899";
  const token = "AbCdEf-GhIjKl_MnOpQrStUvWxYz0123456789";
  const posts: FakeDiscord["posts"] = [];
  const fake = startFakeReceiver(async (request, url) => {
    if (request.method !== "POST" || url.pathname !== `/api/webhooks/${id}/${token}`) {
      return Response.json({ message: "Unknown Webhook", code: 10015 }, { status: 404 });
    }
    const body = await request.json().catch(() => undefined);
    const embeds: DiscordEmbed[] = Array.isArray(body?.embeds) ? body.embeds : [];
    if (!body?.content && embeds.length === 0) {
      return Response.json({ message: "Cannot send an empty message", code: 50006 }, {
        status: 400,
      });
    }
    if (embeds.length > 10 || embeds.some(invalidEmbed)) {
      return Response.json({ message: "Invalid Form Body", code: 50035 }, { status: 400 });
    }
    posts.push({ content: body.content, embeds });
    return new Response(null, { status: 204 });
  }) as FakeDiscord;
  fake.webhookUrl = `${fake.url}/api/webhooks/${id}/${token}`;
  fake.posts = posts;
  return fake;
}
