/** The body of /login and /signup: the AuthForm island, with a note for browsers without JavaScript. */
import AuthFormIsland from "../islands/AuthForm.tsx";
import { island } from "../lib/http/island.tsx";
import { usePage } from "../lib/http/page_context.ts";
import { Notice } from "./Notice.tsx";
import { Title } from "./Title.tsx";

const AuthForm = island("AuthForm", AuthFormIsland);

/** What the page's handler passes: where to go after signing in, and whether a form was posted. */
export interface AuthPageData {
  next: string;
  /** The form was submitted without JavaScript (a POST reached the server). */
  posted?: boolean;
}

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
      <AuthForm mode={mode} next={data.next} captcha={mode === "signup" ? captcha : undefined} />
    </section>
  );
}
