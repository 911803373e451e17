/**
 * Sign in and sign up. Sign-in is supabase-js `signInWithPassword` (against Supabase or this
 * site's own /auth/v1); sign-up POSTs /api/auth/signup and then signs in. An email that
 * already has an account switches the form to sign-in with the email kept.
 */
import { useState } from "preact/hooks";
import { EmailField } from "../components/EmailField.tsx";
import { FormStatus } from "../components/FormStatus.tsx";
import { api, ApiError } from "../lib/web/api.ts";
import { signInMessage, signUpMessage } from "../lib/web/auth_messages.ts";
import { type CaptchaProps, useCaptcha } from "../lib/web/captcha.ts";
import { supabase } from "../lib/web/supabase.ts";
import type { FormMessage } from "../lib/web/use_action.ts";
import { NewPasswordField } from "../components/NewPasswordField.tsx";

/** Which form first, where to go once signed in, and the captcha when sign-up needs one. */
export interface AuthFormProps {
  mode: "login" | "signup";
  next: string;
  captcha?: CaptchaProps;
}

/** The form; its heading and submit label follow the mode. */
export default function AuthForm(props: AuthFormProps) {
  const [mode, setMode] = useState(props.mode);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<FormMessage | null>(null);
  const [captchaToken, setCaptchaToken] = useState("");
  const captcha = useCaptcha(mode === "signup" ? props.captcha : undefined, setCaptchaToken);
  const next = encodeURIComponent(props.next);

  function switchTo(target: "login" | "signup", text?: string) {
    setMode(target);
    setMessage(text ? { error: false, text } : null);
    history.replaceState(null, "", `/${target}?next=${next}`);
  }

  async function signIn(): Promise<boolean> {
    const { error } = await supabase().auth.signInWithPassword({ email, password });
    if (!error) return true;
    setMessage({ error: true, text: signInMessage(error) });
    return false;
  }

  async function submit(event: Event) {
    event.preventDefault();
    // The button is never disabled (focus would fall to the page): a second press waits.
    if (busy) return;
    setBusy(true);
    setMessage(null);
    try {
      if (mode === "signup") {
        if (props.captcha && !captchaToken) {
          setMessage({ error: true, text: "Please complete the captcha first." });
          return;
        }
        try {
          await api("/api/auth/signup", {
            method: "POST",
            body: { email, password, ...(captchaToken ? { captchaToken } : {}) },
          });
        } catch (error) {
          if (error instanceof ApiError && error.code === "email_exists") {
            setPassword("");
            switchTo("login", "An account with this email already exists. Sign in instead.");
            return;
          }
          if (error instanceof ApiError && error.code === "captcha_failed") captcha.reset();
          setMessage({ error: true, text: signUpMessage(error) });
          return;
        }
      }
      // A new account with nowhere asked for goes to the next step (import or rate a few).
      const newcomer = mode === "signup" && props.next === "/";
      if (await signIn()) location.assign(newcomer ? "/?notice=welcome" : props.next);
    } finally {
      setBusy(false);
    }
  }

  const signup = mode === "signup";
  const other = signup ? "login" : "signup";
  return (
    <div class="auth">
      <h1>{signup ? "Create an account" : "Sign in"}</h1>
      <form class="form" method="post" onSubmit={submit}>
        <FormStatus message={message} />
        <EmailField id="auth-email" value={email} onInput={setEmail} />
        {signup
          ? (
            <NewPasswordField
              id="auth-password"
              label="Password"
              email={email}
              value={password}
              onInput={setPassword}
            />
          )
          : (
            <div class="field">
              <label for="auth-password">Password</label>
              <input
                id="auth-password"
                type="password"
                name="password"
                autocomplete="current-password"
                required
                value={password}
                onInput={(e) => setPassword(e.currentTarget.value)}
              />
            </div>
          )}
        {signup && props.captcha
          ? (
            <div
              class="captcha"
              ref={captcha.el}
              data-captcha={props.captcha.provider}
              data-sitekey={props.captcha.siteKey}
            />
          )
          : null}
        <button type="submit" class="button" aria-disabled={busy ? "true" : undefined}>
          {busy ? "Please wait…" : signup ? "Create account" : "Sign in"}
        </button>
        {signup ? null : (
          <p class="forgot-link">
            <a href="/forgot-password">Forgot password?</a>
          </p>
        )}
      </form>
      <p class="auth-switch">
        {signup ? "Already have an account? " : "New here? "}
        <a
          href={`/${other}?next=${next}`}
          onClick={(e) => {
            e.preventDefault();
            switchTo(other);
          }}
        >
          {signup ? "Sign in" : "Create an account"}
        </a>
      </p>
    </div>
  );
}
