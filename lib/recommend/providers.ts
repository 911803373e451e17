/**
 * The AI call: every configured provider and each of its models in order, through the
 * openai SDK with its own retries off, so this loop alone decides what is tried next
 * (docs/recommend.md). Unavailable (timeout, 429, 5xx, connection or auth failure) moves
 * on; content that does not parse moves on too. All unavailable: 503; some answered but
 * never usefully: 502.
 */
import type { APIError, default as OpenAI } from "openai";
import type { AiProvider } from "../core/config.ts";
import type { Logger } from "../core/log.ts";
import { Problem } from "../core/problem.ts";
import { BadOutputError, OUTPUT_JSON_SCHEMA } from "./parse_output.ts";

type Sdk = typeof import("openai");
let sdk: Promise<Sdk> | undefined;
// The SDK is about 20 MB of a process's memory: loaded by the first generation, not at start.
const loadSdk = () => sdk ??= import("openai");
let ApiError: Sdk["APIError"] | undefined;

function isApiError(error: unknown): error is APIError {
  return ApiError !== undefined && error instanceof ApiError;
}

/** The provider timeout of docs/recommend.md. */
const PROVIDER_TIMEOUT_MS = 30_000;

/** One chat message of the prompt. */
export interface ChatMessage {
  role: "system" | "user";
  content: string;
}

/** How providers are called. */
interface CompleteOptions<T> {
  fetch: typeof fetch;
  /** Turns the content into a result; throws BadOutputError to move on to the next model. */
  parse: (content: string | null | undefined) => T;
  /** Per attempt; 30 s unless a test shortens it. */
  timeoutMs?: number;
  log?: Logger;
  /** The JSON schema asked for (`response_format`); the recommendations' by default. */
  responseFormat?: ResponseFormat;
}

/** A named JSON schema for `response_format` (strict). */
interface ResponseFormat {
  name: string;
  schema: Record<string, unknown>;
}

const RECOMMENDATIONS_FORMAT: ResponseFormat = {
  name: "movie_recommendations",
  schema: OUTPUT_JSON_SCHEMA,
};

const NAMES_SCHEMA =
  /response_format|response format|json_schema|structured output|requested parameters/i;

/** Whether a failure says the provider does not take our `response_format` (notes section 2). */
function rejectsSchema(error: unknown): boolean {
  if (!isApiError(error)) return false;
  // An old vLLM 400 reaches the SDK as "400 status code (no body)": the schema is the suspect.
  if (error.status === 400) {
    return NAMES_SCHEMA.test(error.message) || /no body/.test(error.message);
  }
  return (error.status === 404 || error.status === 422 || error.status === 500) &&
    NAMES_SCHEMA.test(error.message);
}

function describe(error: unknown): string {
  if (isApiError(error)) {
    return `${error.status ?? error.name}: ${error.message}`.slice(0, 300);
  }
  return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 300) : String(error);
}

async function ask(
  client: OpenAI,
  model: string,
  messages: ChatMessage[],
  format: ResponseFormat | null,
): Promise<string | null | undefined> {
  const completion = await client.chat.completions.create({
    model,
    messages,
    temperature: 0.7,
    ...(format
      ? {
        response_format: {
          type: "json_schema" as const,
          json_schema: { name: format.name, strict: true, schema: format.schema },
        },
      }
      : {}),
  });
  return completion.choices?.[0]?.message?.content;
}

/** Asks each provider and model in turn for `messages`; the first parsed answer wins. */
export async function complete<T>(
  providers: AiProvider[],
  messages: ChatMessage[],
  options: CompleteOptions<T>,
): Promise<T> {
  if (providers.length === 0) {
    throw new Problem(
      503,
      "ai_unavailable",
      "This server has no recommendation service configured; today's request was given back.",
    );
  }
  const { default: OpenAIClient, APIError } = await loadSdk();
  ApiError = APIError;
  let answeredBadly = 0;
  for (const provider of providers) {
    const client = new OpenAIClient({
      baseURL: provider.baseUrl,
      // Local servers take no key, but the SDK refuses to start without one.
      apiKey: provider.apiKey || "no-key",
      maxRetries: 0,
      timeout: options.timeoutMs ?? PROVIDER_TIMEOUT_MS,
      fetch: options.fetch,
      // Explicit nulls, so the SDK takes nothing from OPENAI_* variables: an OpenAI
      // organization or admin key must never reach another provider.
      organization: null,
      project: null,
      adminAPIKey: null,
      webhookSecret: null,
    });
    for (const model of provider.models) {
      let content: string | null | undefined;
      try {
        try {
          content = await ask(
            client,
            model,
            messages,
            options.responseFormat ?? RECOMMENDATIONS_FORMAT,
          );
        } catch (error) {
          if (!rejectsSchema(error)) throw error;
          content = await ask(client, model, messages, null);
        }
      } catch (error) {
        if (!isApiError(error)) throw error;
        options.log?.({
          level: "warn",
          msg: "ai provider unavailable",
          provider: provider.name,
          model,
          error: describe(error),
        });
        continue;
      }
      try {
        return options.parse(content);
      } catch (error) {
        if (!(error instanceof BadOutputError)) throw error;
        answeredBadly++;
        options.log?.({
          level: "warn",
          msg: "ai output rejected",
          provider: provider.name,
          model,
          error: error.message,
        });
      }
    }
  }
  if (answeredBadly > 0) {
    throw new Problem(
      502,
      "ai_bad_output",
      "The suggestions that came back could not be read. This used one of today's requests; " +
        "please try again later.",
    );
  }
  throw new Problem(
    503,
    "ai_unavailable",
    "The recommendation service is unavailable right now; today's request was given back. " +
      "Please try again in a few minutes.",
    {
      headers: { "Retry-After": "30" },
    },
  );
}
