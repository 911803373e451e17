/**
 * `POST /api/auth/signup`: the body's rules and the order of checks. Body faults are 400 (a
 * password too easy to guess is 400 `weak_password`), the signup mode (403 `signup_disabled`,
 * 400 `invite_required`), then the per-address limit (429), the captcha (400/503), the
 * existing-email check (409), the invite's claim (400 `invite_invalid`), and the provider
 * creates the account (a concurrent duplicate also ends in 409).
 */
import { z } from "zod";
import type { AppDeps } from "@/lib/platform/deps.ts";
import { Problem } from "@/lib/core/problem.ts";
import { admitNewAccount, checkSignupMode } from "../access/admission.ts";
import { verifyCaptcha } from "./captcha.ts";
import { limitSubject, UNKNOWN_ADDRESS } from "./limit_subject.ts";
import type { NewUser } from "./types.ts";
import { PASSWORD_MAX_BYTES, PASSWORD_MIN_CHARS, passwordStrengthFault } from "./password_rule.ts";
import { SIGNUP_PER_ADDRESS, takeAttempt } from "./rate_limit.ts";

const utf8Length = (s: string) => new TextEncoder().encode(s).byteLength;

/** The signup body; email is trimmed and lower-cased before it is checked. */
export const signupBodySchema = z.object({
  email: z.string({ error: "email is required." }).trim().toLowerCase()
    .max(254, { error: "email must be at most 254 characters." })
    .pipe(z.email({ error: "email is not a valid email address." })),
  password: z.string({ error: "password is required." })
    .refine((p) => [...p].length >= PASSWORD_MIN_CHARS, {
      error: `password must be at least ${PASSWORD_MIN_CHARS} characters.`,
    })
    .refine((p) => utf8Length(p) <= PASSWORD_MAX_BYTES, {
      error: `password must be at most ${PASSWORD_MAX_BYTES} bytes (72 ASCII characters).`,
    })
    // bcryptjs hashes a lone surrogate as itself, Supabase (Go) as U+FFFD: such a hash would
    // not verify once the account moves to Supabase Auth.
    .refine((p) => p.isWellFormed(), { error: "password must be well-formed Unicode text." }),
  captchaToken: z.string({ error: "captchaToken must be a string." }).max(4096).nullish(),
  inviteCode: z.string({ error: "inviteCode must be a string." }).trim().max(64).nullish()
    .meta({ description: "Required when the instance signs up by invite (SIGNUP=invite)." }),
});

/** A valid signup body. */
type SignupInput = z.infer<typeof signupBodySchema>;

const FIELD_CODES: Record<string, string> = {
  email: "invalid_email",
  password: "invalid_password",
  inviteCode: "invite_invalid",
};

/** Checks a parsed body: `invalid_body`, `invalid_email` or `invalid_password` on a fault. */
export function parseSignup(body: unknown): SignupInput {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new Problem(400, "invalid_body", "The body must be a JSON object.");
  }
  const parsed = signupBodySchema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = String(issue.path[0] ?? "");
  throw new Problem(400, FIELD_CODES[field] ?? "invalid_body", issue.message);
}

/** Runs a signup: strength, limit, captcha, existing email, then `createUser` of the provider. */
export async function signUp(
  deps: AppDeps,
  input: SignupInput,
  options: {
    clientAddress: string;
    createUser: (email: string, password: string) => Promise<NewUser>;
  },
): Promise<NewUser> {
  // The mode first: a closed instance or a missing invite needs no further work to refuse.
  checkSignupMode(deps, input.inviteCode);
  const weak = await passwordStrengthFault(input.password, { email: input.email });
  if (weak) throw new Problem(400, "weak_password", weak.message);
  const attempt = await takeAttempt(
    deps.kv,
    [{ limit: SIGNUP_PER_ADDRESS, subject: limitSubject(options.clientAddress) }],
    { clock: deps.clock },
  );
  if (!attempt.allowed) {
    throw new Problem(429, "rate_limited", "Too many signups from this address; try later.", {
      headers: { "Retry-After": String(attempt.retryAfterS) },
    });
  }
  if (deps.config.captcha) {
    const remoteIp = options.clientAddress === UNKNOWN_ADDRESS ? undefined : options.clientAddress;
    await verifyCaptcha(deps.config.captcha, input.captchaToken ?? undefined, {
      fetch: deps.fetch,
      remoteIp,
    });
  }
  const [row] = await deps.store.query<{ exists: boolean }>(
    "select public.auth_email_exists($1) as exists",
    [input.email],
  );
  if (row.exists) {
    throw new Problem(409, "email_exists", "An account with this email already exists.");
  }
  return await admitNewAccount(
    deps,
    { email: input.email, inviteCode: input.inviteCode },
    () => options.createUser(input.email, input.password),
  );
}
