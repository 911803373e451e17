/**
 * Server-side captcha check of signup: Turnstile and hCaptcha share one siteverify protocol
 * (a form POST of `secret`, `response` and optional `remoteip`, answered with JSON whose
 * `success` is a boolean).
 */
import type { CaptchaConfig } from "@/lib/core/config.ts";
import { Problem } from "@/lib/core/problem.ts";

const TIMEOUT_MS = 10_000;

function failed(detail: string): Problem {
  return new Problem(400, "captcha_failed", detail);
}

function unavailable(cause: unknown): Problem {
  return new Problem(
    503,
    "captcha_unavailable",
    "The captcha could not be checked; try again in a moment.",
    { headers: { "Retry-After": "5" }, cause },
  );
}

/**
 * Resolves when the verifier accepts `token`. Missing or rejected: 400 `captcha_failed`.
 * Verifier unreachable, slow (10 s) or answering nonsense: 503 `captcha_unavailable`, since
 * the user did nothing wrong.
 */
export async function verifyCaptcha(
  captcha: CaptchaConfig,
  token: string | undefined,
  options: { fetch: typeof fetch; remoteIp?: string },
): Promise<void> {
  if (!token) throw failed("Complete the captcha to sign up.");
  const form = new URLSearchParams({ secret: captcha.secret, response: token });
  if (options.remoteIp) form.set("remoteip", options.remoteIp);
  let body: unknown;
  try {
    const res = await options.fetch(captcha.verifyUrl, {
      method: "POST",
      body: form,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!res.ok) {
      await res.body?.cancel();
      throw new Error(`captcha verifier answered ${res.status}`);
    }
    body = await res.json();
  } catch (error) {
    throw unavailable(error);
  }
  const success = (body as { success?: unknown } | null)?.success;
  if (typeof success !== "boolean") throw unavailable(new Error("verifier sent no success flag"));
  if (!success) throw failed("The captcha was not accepted; try again.");
}
