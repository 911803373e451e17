/**
 * The Trakt section of /account/connections: the apps signed in through the Trakt-compatible
 * API (each with its last use, signed out with one button) and the user's own apps (made with a
 * client secret shown once, deleted with their sign-ins). docs/trakt.md, "Sign-in".
 */
import { useState } from "preact/hooks";
import { FormStatus } from "../components/FormStatus.tsx";
import { api } from "../lib/web/api.ts";
import { formFailure } from "../lib/web/form_failure.ts";
import { useAction } from "../lib/web/use_action.ts";

/** An app the user signed in to, as the list shows it. */
export interface AuthorizationRow {
  id: string;
  app: { name: string | null; clientId: string };
  createdAt: string;
  lastUsedAt: string | null;
}

/** One of the user's own apps. */
export interface OwnAppRow {
  id: string;
  name: string;
  clientId: string;
  redirectUris: string[];
  createdAt: string;
}

function day(iso: string | null, none: string): string {
  return iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: "medium" }) : none;
}

function appLabel(row: AuthorizationRow): string {
  return row.app.name ?? `App ${row.app.clientId.slice(0, 12)}…`;
}

/** `authorizations` newest first, `apps` oldest first, as the server read them. */
export default function TraktApps(
  { authorizations: initialAuthorizations, apps: initialApps, baseUrl }: {
    authorizations: AuthorizationRow[];
    apps: OwnAppRow[];
    baseUrl: string;
  },
) {
  const [authorizations, setAuthorizations] = useState(initialAuthorizations);
  const [apps, setApps] = useState(initialApps);
  const [secret, setSecret] = useState<{ name: string; clientId: string; value: string } | null>(
    null,
  );
  const { busy, message, setMessage, run } = useAction();

  function signOut(row: AuthorizationRow) {
    return run(async () => {
      try {
        await api(`/api/trakt/authorizations/${row.id}`, { method: "DELETE", auth: true });
        setAuthorizations(authorizations.filter((a) => a.id !== row.id));
        return { error: false, text: `${appLabel(row)} is signed out.` };
      } catch (error) {
        return formFailure(error);
      }
    });
  }

  function create(form: HTMLFormElement) {
    const data = new FormData(form);
    const redirectUris = String(data.get("redirectUris") ?? "").split(/\s+/).filter(Boolean);
    return run(async () => {
      try {
        const { data: made } = await api<OwnAppRow & { clientSecret: string }>(
          "/api/trakt/apps",
          {
            method: "POST",
            auth: true,
            body: { name: String(data.get("name") ?? ""), redirectUris },
          },
        );
        const { clientSecret, ...row } = made;
        setApps([...apps, row]);
        setSecret({ name: row.name, clientId: row.clientId, value: clientSecret });
        form.reset();
        return null;
      } catch (error) {
        return formFailure(error);
      }
    });
  }

  function remove(row: OwnAppRow) {
    return run(async () => {
      try {
        await api(`/api/trakt/apps/${row.id}`, { method: "DELETE", auth: true });
        setApps(apps.filter((a) => a.id !== row.id));
        setAuthorizations(authorizations.filter((a) => a.app.clientId !== row.clientId));
        if (secret?.clientId === row.clientId) setSecret(null);
        return { error: false, text: `${row.name} is deleted; its sign-ins ended.` };
      } catch (error) {
        return formFailure(error);
      }
    });
  }

  return (
    <div class="tokens">
      <h3>Signed-in apps</h3>
      {authorizations.length
        ? (
          <ul class="token-list">
            {authorizations.map((row) => (
              <li key={row.id}>
                <span class="token-name">{appLabel(row)}</span>{" "}
                <span class="hint">
                  signed in {day(row.createdAt, "")} · last used {day(row.lastUsedAt, "never")}
                </span>{" "}
                <button
                  type="button"
                  class="button button-small button-danger"
                  aria-label={`Sign out ${appLabel(row)}`}
                  onClick={() => !busy && signOut(row)}
                >
                  Sign out
                </button>
              </li>
            ))}
          </ul>
        )
        : <p class="hint">No app is signed in.</p>}

      <h3>Your own apps</h3>
      <p class="hint">
        For a tool that asks for "your own Trakt app": give it the client id and secret, and set its
        API address to{" "}
        <code>{baseUrl}</code>. One redirect URI per line (or none: the code is then shown to copy).
      </p>
      <form
        class="token-form"
        onSubmit={(event) => {
          event.preventDefault();
          if (!busy) create(event.currentTarget);
        }}
      >
        <label>
          App name
          <input name="name" required maxLength={100} placeholder="e.g. Home sync" />
        </label>
        <label>
          Redirect URIs
          <textarea name="redirectUris" rows={2} placeholder="https://…/callback" />
        </label>
        <button type="submit" class="button" aria-disabled={busy ? "true" : undefined}>
          {busy ? "Making…" : "Make an app"}
        </button>
      </form>
      <FormStatus message={message} />
      {secret
        ? (
          <div class="token-once" role="status">
            <p>
              <strong>{secret.name}</strong>: copy the secret now, it is shown only this once.
            </p>
            <label>
              Client id
              <input readOnly value={secret.clientId} class="token-value" />
            </label>
            <label>
              Client secret
              <input readOnly value={secret.value} class="token-value" />
            </label>
            <button
              type="button"
              class="button button-secondary"
              onClick={async () => {
                await navigator.clipboard?.writeText(secret.value).catch(() => {});
                setMessage({ error: false, text: "Copied." });
              }}
            >
              Copy the secret
            </button>
          </div>
        )
        : null}
      {apps.length
        ? (
          <ul class="token-list">
            {apps.map((row) => (
              <li key={row.id}>
                <span class="token-name">{row.name}</span>{" "}
                <span class="hint">
                  client id <code>{row.clientId}</code> · made {day(row.createdAt, "")}
                  {row.redirectUris.length ? ` · ${row.redirectUris.join(", ")}` : ""}
                </span>{" "}
                <button
                  type="button"
                  class="button button-small button-danger"
                  aria-label={`Delete ${row.name}`}
                  onClick={() => !busy && remove(row)}
                >
                  Delete
                </button>
              </li>
            ))}
          </ul>
        )
        : <p class="hint">No apps of your own yet.</p>}
    </div>
  );
}
