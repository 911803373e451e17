/**
 * The recommendations' AI settings as lib/core/config.ts reads them (docs/recommend.md): the
 * OpenAI-compatible providers (AI_PROVIDERS, or OPENAI_API_KEY, OPENAI_BASE_URL and AI_MODELS for
 * one) and AI_FALLBACK, what answers when none of them can.
 */
import { z } from "zod";
import { ConfigError, type Env, url, value } from "./config_values.ts";

/** One OpenAI-compatible provider, tried in order with each of its models in order. */
export interface AiProvider {
  name: string;
  baseUrl: string;
  apiKey: string;
  models: string[];
}

const providerSchema = z.object({
  name: z.string().min(1),
  baseUrl: z.url({ protocol: /^https?$/ }),
  apiKey: z.string(),
  models: z.array(z.string().min(1)).min(1),
});

/** Reads AI_PROVIDERS, else the one provider of OPENAI_*; none when nothing is set. */
export function aiProviders(env: Env): AiProvider[] {
  const raw = value(env, "AI_PROVIDERS");
  if (raw !== undefined) {
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      throw new ConfigError("AI_PROVIDERS", "is not valid JSON");
    }
    const parsed = z.array(providerSchema).safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ConfigError(
        "AI_PROVIDERS",
        `must be a JSON array of {"name","baseUrl","apiKey","models":[...]}: ${
          issue.path.join(".") || "(root)"
        } ${issue.message}`,
      );
    }
    return parsed.data.map((p) => ({ ...p, baseUrl: p.baseUrl.replace(/\/+$/, "") }));
  }
  const models = value(env, "AI_MODELS");
  const key = value(env, "OPENAI_API_KEY");
  const baseUrl = value(env, "OPENAI_BASE_URL");
  if (!models && !key && !baseUrl) return [];
  if (!models) {
    throw new ConfigError(
      "AI_MODELS",
      "must list at least one model when OPENAI_API_KEY or OPENAI_BASE_URL is set",
    );
  }
  return [{
    name: "openai",
    baseUrl: url(env, "OPENAI_BASE_URL", "https://api.openai.com/v1"),
    apiKey: key ?? "",
    models: models.split(",").map((m) => m.trim()).filter(Boolean),
  }];
}

/** Reads AI_FALLBACK: `off` (the default) or `local`. */
export function aiFallback(env: Env): "off" | "local" {
  const raw = value(env, "AI_FALLBACK")?.toLowerCase() ?? "off";
  if (raw !== "off" && raw !== "local") {
    throw new ConfigError("AI_FALLBACK", `must be "off" or "local", got ${JSON.stringify(raw)}`);
  }
  return raw;
}
