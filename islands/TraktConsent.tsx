/**
 * The consent page of the code flow (/trakt/oauth/authorize): the person approves or denies one
 * of their own apps; the browser then goes to its redirect URI, or the code is shown to copy
 * (out of band). docs/trakt.md, "Sign-in".
 */
import { useState } from "preact/hooks";
import { FormStatus } from "../components/FormStatus.tsx";
import { api } from "../lib/web/api.ts";
import { formFailure } from "../lib/web/form_failure.ts";
import { useAction } from "../lib/web/use_action.ts";
import { ApproveDeny } from "../components/ApproveDeny.tsx";

/** What the page asks about. */
export interface ConsentRequest {
  appName: string;
  clientId: string;
  redirectUri: string;
  state?: string;
}

/** `request`: the app, its redirect URI and the state to send back. */
export default function TraktConsent({ request }: { request: ConsentRequest }) {
  const [shown, setShown] = useState<{ code: string | null; denied: boolean } | null>(null);
  const { busy, message, run } = useAction();

  function answer(approve: boolean) {
    return run(async () => {
      try {
        const { data } = await api<{ code: string | null; redirectTo: string | null }>(
          "/api/trakt/authorize",
          {
            method: "POST",
            auth: true,
            body: {
              clientId: request.clientId,
              redirectUri: request.redirectUri,
              state: request.state,
              approve,
            },
          },
        );
        if (data.redirectTo) {
          location.assign(data.redirectTo);
          return null;
        }
        setShown({ code: data.code, denied: !approve });
        return null;
      } catch (error) {
        return formFailure(error);
      }
    });
  }

  if (shown) {
    return shown.denied || !shown.code
      ? <p class="notice" role="status">Denied. The app was not signed in.</p>
      : (
        <div class="token-once" role="status">
          <p>Approved. Paste this code into {request.appName}:</p>
          <input readOnly value={shown.code} aria-label="The code" class="token-value" />
        </div>
      );
  }
  return (
    <div>
      <p>
        <strong>{request.appName}</strong>{" "}
        (your app) asks to read and change your watched films, ratings, diary and My List.
      </p>
      <ApproveDeny busy={busy} onAnswer={answer} />
      <FormStatus message={message} />
    </div>
  );
}
