/**
 * Sign in and sign up. Sign-in is supabase-js `signInWithPassword` (against Supabase or this
 * site's own /auth/v1); sign-up POSTs /api/auth/signup and then signs in. An email that
 * already has an account switches the form to sign-in with the email kept. When the signup
 * mailed a confirmation link (SMTP set), the form says so and offers Continue instead of leaving.
 */
import { useState } from "preact/hooks";
import { EmailField } from "../components/EmailField.tsx";
import { FormStatus } from "../components/FormStatus.tsx";
import { api, ApiError } from "../lib/web/api.ts";
import { signInMessage, signUpMessage } from "../lib/web/auth_messages.ts";
import { type CaptchaProps, useCaptcha } from "../lib/web/captcha.ts";
import { oauthClient, supabase } from "../lib/web/supabase.ts";
import { useEffect } from "preact/hooks";
import type { FormMessage } from "../lib/web/use_action.ts";
import { NewPasswordField } from "../components/NewPasswordField.tsx";
import CodeStep from "./CodeStep.tsx";

/** Which form first, where to go once signed in, and the captcha when sign-up needs one. */
interface AuthFormProps {
  mode: "login" | "signup";
  next: string;
  captcha?: CaptchaProps;
  /** Who may sign up: `invite` asks for the code, `closed` offers no sign-up form. */
  signup?: "open" | "invite" | "closed";
  /** The code of the invite link the visitor followed. */
  invite?: string;
  /** false: password sign-in is off, only the identity provider's button is shown. */
  passwordLogin?: boolean;
  /** The identity provider's name (OIDC_NAME) when its sign-in is configured. */
  oidcName?: string;
  /** Why the identity provider's sign-in failed. */
  error?: string;
  /** Signed in already, the session owes its two-factor code: open at the code step. */
  codeStep?: boolean;
}

/** The form; its heading and submit label follow the mode. */
export default function AuthForm(props: AuthFormProps) {
  const [mode, setMode] = useState(props.mode);
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<FormMessage | null>(
    props.error ? { error: true, text: props.error } : null,
  );
  const [captchaToken, setCaptchaToken] = useState("");
  const [inviteCode, setInviteCode] = useState(props.invite ?? "");
  const signupMode = props.signup ?? "open";
  const [needsCode, setNeedsCode] = useState(props.codeStep ?? false);
  const passwords = props.passwordLogin ?? true;
  // Signed up and a confirmation link mailed: where Continue goes, and the address it went to.
  const [mailed, setMailed] = useState<{ to: string; email: string } | null>(null);

  // Back from the identity provider with a code: supabase-js exchanges it (grant_type=pkce).
  useEffect(() => {
    const code = new URLSearchParams(location.search).get("code");
    if (!code || !props.oidcName) return;
    setBusy(true);
    oauthClient().auth.exchangeCodeForSession(code).then(async ({ error }) => {
      if (error) {
        setMessage({ error: true, text: "That sign-in could not be finished. Please try again." });
        setBusy(false);
        return;
      }
      await afterSignIn();
    });
  }, []);

  async function afterSignIn(to = props.next) {
    // Two-factor codes on: the session is aal1 until the code step raises it.
    const level = await supabase().auth.mfa.getAuthenticatorAssuranceLevel();
    if (level.data?.nextLevel === "aal2" && level.data.currentLevel !== "aal2") {
      setNeedsCode(true);
      return;
    }
    location.assign(to);
  }

  async function withProvider() {
    setBusy(true);
    const back = new URL("/login", location.origin);
    back.searchParams.set("next", props.next);
    const { error } = await oauthClient().auth.signInWithOAuth({
      // The built-in provider's name for the instance's OpenID Connect provider.
      provider: "oidc" as "google",
      options: {
        redirectTo: back.toString(),
        queryParams: inviteCode.trim() ? { invite_code: inviteCode.trim() } : undefined,
      },
    });
    if (error) {
      setMessage({ error: true, text: "The sign-in could not be started. Please try again." });
      setBusy(false);
    }
  }
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
    let sentTo: string | null = null;
    try {
      if (mode === "signup" && signupMode !== "closed") {
        if (props.captcha && !captchaToken) {
          setMessage({ error: true, text: "Please complete the captcha first." });
          return;
        }
        try {
          const { data } = await api<{ user: { email: string; confirmationSentAt?: string } }>(
            "/api/auth/signup",
            {
              method: "POST",
              body: {
                email,
                password,
                ...(captchaToken ? { captchaToken } : {}),
                ...(signupMode === "invite" ? { inviteCode: inviteCode.trim() } : {}),
              },
            },
          );
          if (data.user.confirmationSentAt) sentTo = data.user.email;
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
      if (!(await signIn())) return;
      // A new account with nowhere asked for goes to the next step (import or rate a few).
      const to = mode === "signup" && props.next === "/" ? "/?notice=welcome" : props.next;
      // The account works already; the link proves the address (for the identity provider's
      // sign-in), so the person is told before going on.
      if (sentTo) setMailed({ to, email: sentTo });
      else await afterSignIn(to);
    } finally {
      setBusy(false);
    }
  }

  const signup = mode === "signup" && signupMode !== "closed" && passwords;
  const other = signup ? "login" : "signup";
  if (mailed) {
    return (
      <div class="auth">
        <h1>Account created</h1>
        <p class="status" role="status">
          We sent a link to{" "}
          {mailed.email}: open it to confirm your address (you can use the site meanwhile).
        </p>
        <p class="button-row">
          <a class="button" href={mailed.to}>Continue</a>
        </p>
      </div>
    );
  }
  if (needsCode) {
    return (
      <div class="auth">
        <h1>Sign in</h1>
        <CodeStep next={props.next} />
      </div>
    );
  }
  return (
    <div class="auth">
      <h1>{signup ? "Create an account" : "Sign in"}</h1>
      {props.oidcName
        ? (
          <p class="oidc-signin">
            <button
              type="button"
              class="button oidc-button"
              aria-disabled={busy ? "true" : undefined}
              onClick={() => busy || withProvider()}
            >
              Sign in with {props.oidcName}
            </button>
          </p>
        )
        : null}
      {!passwords
        ? <FormStatus message={message} />
        : (
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
            {signup && signupMode === "invite"
              ? (
                <div class="field">
                  <label for="auth-invite">Invite code</label>
                  <input
                    id="auth-invite"
                    name="invite"
                    autocomplete="off"
                    required
                    value={inviteCode}
                    onInput={(e) => setInviteCode(e.currentTarget.value)}
                  />
                </div>
              )
              : null}
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
        )}
      {!passwords || (!signup && signupMode === "closed") ? null : (
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
      )}
    </div>
  );
}
