/**
 * A fake OpenAI-compatible provider on 127.0.0.1: POST /v1/chat/completions answers what the
 * test scripts (status, body, content, delay, rejection of `response_format`) and records
 * every request, so tests see exactly what the service sent.
 */
import { abortable } from "./abortable.ts";

/** One scripted answer. */
export interface FakeAnswer {
  /** HTTP status; 200 by default. */
  status?: number;
  /** The raw JSON body; overrides `content`. */
  body?: unknown;
  /** The assistant content of a 200 completion. */
  content?: string;
  /** Waits this long before answering (cut short when the fake closes). */
  delayMs?: number;
  /** Holds the answer until this settles: a test's gate, in place of a wall-clock delay. */
  heldUntil?: Promise<unknown>;
  /** Answers Groq's 400 when the request carries `response_format`, else this answer. */
  rejectResponseFormat?: boolean;
}

/** A request the fake received. */
export interface RecordedRequest {
  path: string;
  authorization: string | null;
  headers: Record<string, string>;
  // deno-lint-ignore no-explicit-any
  body: any;
}

/** A running fake provider. */
export interface FakeAi extends AsyncDisposable {
  /** The base URL to configure (ends in /v1). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Queues answers, used in order; when the queue is empty `fallback` answers. */
  script(...answers: FakeAnswer[]): void;
  fallback: (request: RecordedRequest) => FakeAnswer;
  close(): Promise<void>;
}

/** A chat completion whose assistant message is `content`. */
export function completion(content: string | null, model = "fake-model"): unknown {
  return {
    id: `chatcmpl-${crypto.randomUUID()}`,
    object: "chat.completion",
    created: 1_790_000_000,
    model,
    choices: [{
      index: 0,
      message: { role: "assistant", content, refusal: null },
      finish_reason: "stop",
    }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

/** The agreed JSON content for `movies`. */
export function recommendationsContent(movies: { title: string; year: number | null }[]): string {
  return JSON.stringify({
    recommendations: movies.map((m) => ({ ...m, reason: `Because you like ${m.title}.` })),
  });
}

const GROQ_REJECTION = {
  error: {
    message: "This model does not support response format `json_schema`.",
    type: "invalid_request_error",
  },
};

/** Starts a fake provider; dispose it with `await using`. */
export function startFakeAi(
  options: { fallback?: (request: RecordedRequest) => FakeAnswer } = {},
): FakeAi {
  const queue: FakeAnswer[] = [];
  const requests: RecordedRequest[] = [];
  const fake: { fallback: (request: RecordedRequest) => FakeAnswer } = {
    fallback: options.fallback ??
      (() => ({ status: 500, body: { error: { message: "unscripted" } } })),
  };
  // Closing ends pending delays, so a test never waits for an answer nobody reads.
  const closing = new AbortController();
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      if (request.method !== "POST" || url.pathname !== "/v1/chat/completions") {
        return Response.json({ error: { message: "not found" } }, { status: 404 });
      }
      const recorded: RecordedRequest = {
        path: url.pathname,
        authorization: request.headers.get("authorization"),
        headers: Object.fromEntries(request.headers),
        body: await request.json(),
      };
      requests.push(recorded);
      const answer: FakeAnswer = queue.shift() ?? fake.fallback(recorded);
      if (answer.delayMs) await abortable(answer.delayMs, closing.signal);
      if (answer.heldUntil) await answer.heldUntil;
      if (answer.rejectResponseFormat && recorded.body.response_format) {
        return Response.json(GROQ_REJECTION, { status: 400 });
      }
      const body = answer.body ?? completion(answer.content ?? "", recorded.body.model);
      return Response.json(body, { status: answer.status ?? 200 });
    },
  );
  const close = async () => {
    closing.abort();
    await server.shutdown();
  };
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    script: (...answers) => queue.push(...answers),
    get fallback() {
      return fake.fallback;
    },
    set fallback(fn) {
      fake.fallback = fn;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** The AI_PROVIDERS value naming `fakes` in order, each with `models`. */
export function providersEnv(
  fakes: { name: string; baseUrl: string; models?: string[] }[],
): Record<string, string> {
  return {
    AI_PROVIDERS: JSON.stringify(
      fakes.map((f) => ({
        name: f.name,
        baseUrl: f.baseUrl,
        apiKey: `key-${f.name}`,
        models: f.models ?? ["m1"],
      })),
    ),
  };
}
