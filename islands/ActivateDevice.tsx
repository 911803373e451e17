/**
 * /activate: the person types the code their player or app shows, sees which app asks (its name
 * when it is one of theirs, else its client id), and approves or denies it (docs/trakt.md).
 */
import { useState } from "preact/hooks";
import { FormStatus } from "../components/FormStatus.tsx";
import { api } from "../lib/web/api.ts";
import { formFailure } from "../lib/web/form_failure.ts";
import { useAction } from "../lib/web/use_action.ts";
import { ApproveDeny } from "../components/ApproveDeny.tsx";

interface Pending {
  userCode: string;
  app: { name: string | null; clientId: string };
  expiresAt: string;
}

/** `code`: the code from the page's `?code=`, if the app linked it. */
export default function ActivateDevice({ code: initial }: { code: string }) {
  const [code, setCode] = useState(initial);
  const [pending, setPending] = useState<Pending | null>(null);
  const [done, setDone] = useState<"approved" | "denied" | null>(null);
  const { busy, message, run } = useAction();

  function lookUp() {
    return run(async () => {
      try {
        const { data } = await api<Pending>(
          `/api/trakt/activate?code=${encodeURIComponent(code)}`,
          { auth: true },
        );
        setPending(data);
        return null;
      } catch (error) {
        return formFailure(error);
      }
    });
  }

  function answer(approve: boolean) {
    return run(async () => {
      try {
        const { data } = await api<{ result: "approved" | "denied" }>("/api/trakt/activate", {
          method: "POST",
          auth: true,
          body: { code: pending?.userCode ?? code, approve },
        });
        setDone(data.result);
        return null;
      } catch (error) {
        setPending(null);
        return formFailure(error);
      }
    });
  }

  if (done) {
    return (
      <p class="notice" role="status">
        {done === "approved"
          ? "Approved. Your app signs in within a few seconds; you can close this page."
          : "Denied. The app was not signed in."}
      </p>
    );
  }

  return (
    <div class="activate">
      {pending
        ? (
          <div class="activate-app">
            <p>
              {pending.app.name
                ? (
                  <>
                    <strong>{pending.app.name}</strong> (your app) asks to
                  </>
                )
                : (
                  <>
                    The app with client id <code class="client-id">{pending.app.clientId}</code>
                    {" "}
                    asks to
                  </>
                )} read and change your watched films, ratings, diary and My List.
            </p>
            <ApproveDeny busy={busy} onAnswer={answer} />
          </div>
        )
        : (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (!busy) lookUp();
            }}
          >
            <label>
              Code
              <input
                name="code"
                required
                autoComplete="off"
                autoCapitalize="characters"
                spellcheck={false}
                maxLength={40}
                value={code}
                onInput={(event) => setCode(event.currentTarget.value)}
              />
            </label>
            <button type="submit" class="button" aria-disabled={busy ? "true" : undefined}>
              {busy ? "Looking…" : "Continue"}
            </button>
          </form>
        )}
      <FormStatus message={message} />
    </div>
  );
}
