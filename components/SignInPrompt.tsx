/** What a signed-out visitor sees on a page that needs an account. */
import { usePage } from "../lib/http/page_context.ts";

/** `what` completes "Sign in to ..."; `next` is where sign-in returns to. */
export function SignInPrompt({ what, next }: { what: string; next: string }) {
  // A session that owes its two-factor code is sent to the code step instead (lib/http/render.tsx).
  usePage().needsAccount = true;
  const query = `?next=${encodeURIComponent(next)}`;
  return (
    <div class="prompt">
      <p>
        <a class="button" href={`/login${query}`}>Sign in</a> to {what}.
      </p>
      <p>
        New here? <a href={`/signup${query}`}>Create an account</a>.
      </p>
    </div>
  );
}
