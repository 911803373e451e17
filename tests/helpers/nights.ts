/** Movie nights in tests: requests as a member, and a night made and joined by several users. */
import type { TestApp } from "./app.ts";
import type { TestUser } from "./users.ts";
import { issueAccessToken } from "./tokens.ts";
import { type FeatureMovie, seedFeatureMovies, worldMovies } from "./local_world.ts";
import type { Store } from "@/lib/platform/store/mod.ts";

/** Sends `body` as JSON to `path` with `user`'s token. */
export async function send(
  t: Pick<TestApp, "request">,
  user: TestUser,
  path: string,
  options: { method?: string; body?: unknown } = {},
): Promise<{ status: number; body: Record<string, unknown> & { code?: string } }> {
  const res = await t.request(path, {
    method: options.method ?? "POST",
    headers: {
      ...user.headers,
      ...(options.body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

/** A night made by `creator` and joined by `others`: its id and join token. */
export async function nightOf(
  t: Pick<TestApp, "request">,
  creator: TestUser,
  others: TestUser[],
  body: Record<string, unknown> = {},
): Promise<{ id: string; token: string; joinUrl: string }> {
  const made = await send(t, creator, "/api/nights", { body });
  if (made.status !== 201) throw new Error(`night not made: ${JSON.stringify(made.body)}`);
  const joinUrl = String(made.body.joinUrl);
  const id = String(made.body.id);
  const token = new URL(joinUrl).searchParams.get("token")!;
  for (const u of others) {
    const joined = await send(t, u, `/api/nights/${id}/join`, { body: { token } });
    if (joined.status !== 200) throw new Error(`not joined: ${JSON.stringify(joined.body)}`);
  }
  return { id, token, joinUrl };
}

/** `users` with fresh access tokens: a test that moves the clock a day outlives their first. */
export async function freshTokens(t: Pick<TestApp, "deps">, users: TestUser[]): Promise<void> {
  for (const u of users) {
    const { token } = await issueAccessToken(t.deps, { id: u.id, email: u.email });
    u.token = token;
    u.headers = { authorization: `Bearer ${token}` };
  }
}

/** One event of a night's stream. */
interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Reads a `text/event-stream` body event by event (comments kept as `comment` events). */
export function eventReader(body: ReadableStream<Uint8Array>) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  const queued: StreamEvent[] = [];
  let done = false;
  const parse = () => {
    let cut;
    while ((cut = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let event = "message";
      let data = "";
      const comments: string[] = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice(7);
        else if (line.startsWith("data: ")) data += line.slice(6);
        else if (line.startsWith(":")) comments.push(line.slice(1).trim());
      }
      if (data) queued.push({ event, data: JSON.parse(data) });
      else for (const c of comments) queued.push({ event: "comment", data: { text: c } });
    }
  };
  return {
    /** The next event that `wanted` accepts (others skipped), or an error after `ms`. */
    async next(wanted: (e: StreamEvent) => boolean = () => true, ms = 5_000): Promise<StreamEvent> {
      const deadline = Date.now() + ms;
      while (true) {
        const i = queued.findIndex(wanted);
        if (i >= 0) return queued.splice(0, i + 1).pop()!;
        queued.length = 0;
        if (done) throw new Error("the stream ended");
        const left = deadline - Date.now();
        if (left <= 0) throw new Error("no such event in time");
        let timer: ReturnType<typeof setTimeout> | undefined;
        const chunk = await Promise.race([
          reader.read(),
          new Promise<"late">((resolve) => {
            timer = setTimeout(() => resolve("late"), left);
          }),
        ]);
        clearTimeout(timer);
        if (chunk === "late") throw new Error("no such event in time");
        if (chunk.done) done = true;
        else buffer += decoder.decode(chunk.value, { stream: true });
        parse();
      }
    },
    /** Whether the stream has ended (reading what is left). */
    async ended(ms = 5_000): Promise<boolean> {
      try {
        await this.next(() => false, ms);
      } catch (error) {
        return (error as Error).message === "the stream ended";
      }
      return false;
    },
    cancel: () => reader.cancel().catch(() => {}),
  };
}

/**
 * The local world's films (or `movies`), once: a PostgreSQL database outlives a test (a file's
 * tests share one, and a file run alone uses TEST_DATABASE_URL's own).
 */
export async function seedWorld(store: Store, movies: FeatureMovie[] = worldMovies()) {
  const [{ n }] = await store.query<{ n: number }>(
    "select count(*)::int as n from public.movies where catalog_id = any ($1::integer[])",
    [movies.map((m) => m.id)],
  );
  if (n === 0) await seedFeatureMovies(store, movies);
}
