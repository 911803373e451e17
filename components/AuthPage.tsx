/** The body of /login and /signup: the AuthForm island, with a note for browsers without JavaScript. */
import { usePage } from "../lib/http/page_context.ts";
import { Notice } from "./Notice.tsx";
import { Title } from "./Title.tsx";
import { AuthForm } from "../islands.gen.ts";

/** What the page's handler passes: where to go after signing in, and whether a form was posted. */
export interface AuthPageData {
  next: string;
  /** The form was submitted without JavaScript (a POST reached the server). */
  posted?: boolean;
  /** Who may sign up (SIGNUP) and an invite code from the invite link. */
  signup?: "open" | "invite" | "closed";
  invite?: string;
  /** PASSWORD_LOGIN: false shows only the identity provider's button. */
  passwordLogin?: boolean;
  /** OIDC_NAME, when sign-in with the instance's identity provider is configured. */
  oidcName?: string;
  /** Why the identity provider's sign-in failed, in plain words. */
  error?: string;
  /** The visitor's session owes its two-factor code: the form opens at the code step. */
  codeStep?: boolean;
}

const SIGNUP_NOTES = {
  invite: "Accounts here are by invitation: enter the invite code you were given.",
  closed: "This site is not taking new accounts. If you already have one, sign in.",
} as const;

/** `mode` is the form shown first. */
export function AuthPage({ mode, data }: { mode: "login" | "signup"; data: AuthPageData }) {
  const { captcha } = usePage();
  return (
    <section class="auth-page">
      <Title>{mode === "signup" ? "Create an account" : "Sign in"}</Title>
      {data.posted
        ? <Notice kind="error">Signing in needs JavaScript. Please enable it and try again.</Notice>
        : (
          <noscript>
            <p class="notice notice-error">Signing in needs JavaScript.</p>
          </noscript>
        )}
      {mode === "signup" && data.signup && data.signup !== "open"
        ? <Notice>{SIGNUP_NOTES[data.signup]}</Notice>
        : null}
      <AuthForm
        mode={mode}
        next={data.next}
        captcha={mode === "signup" ? captcha : undefined}
        // Only what differs from the defaults travels to the island.
        signup={data.signup === "open" ? undefined : data.signup}
        invite={data.invite}
        passwordLogin={data.passwordLogin === false ? false : undefined}
        oidcName={data.oidcName}
        error={data.error}
        codeStep={data.codeStep}
      />
    </section>
  );
}
