/**
 * The API reference's console (/api/docs): the credentials "Try it" sends (the signed-in
 * visitor's access token, or a Bearer token pasted here; the admin token for admin routes), and
 * the sending of every operation's form the server drew (components/ApiOperation.tsx), one
 * listener for all of them. The answer's status and body appear under the form; focus stays on
 * the pressed button.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { accessToken } from "../lib/web/live_session.ts";

/** The request a drawn form describes, with the credentials given. */
function requestOf(
  form: HTMLFormElement,
  credentials: { bearer: string; admin: string },
): { url: string; init: RequestInit } {
  const data = new FormData(form);
  const query = new URLSearchParams();
  let path = form.dataset.path ?? "/";
  for (const [key, value] of data) {
    const [where, name] = key.split(":");
    const text = String(value).trim();
    if (where === "path") path = path.replace(`{${name}}`, encodeURIComponent(text));
    if (where === "query" && text) query.set(name, text);
  }
  const headers: Record<string, string> = {};
  if (credentials.bearer) headers.authorization = `Bearer ${credentials.bearer}`;
  if (form.dataset.admin && credentials.admin) headers["x-admin-token"] = credentials.admin;
  const body = data.get("body");
  if (typeof body === "string" && form.dataset.contentType) {
    headers["content-type"] = form.dataset.contentType;
  }
  const search = query.size ? `?${query}` : "";
  return {
    url: `${path}${search}`,
    init: {
      method: form.dataset.method,
      headers,
      body: typeof body === "string" ? body : undefined,
    },
  };
}

/** The answer as the form shows it: status line, then the body (JSON indented). */
async function describe(response: Response): Promise<string> {
  const text = await response.text();
  let shown = text;
  try {
    shown = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Not JSON: shown as it came.
  }
  return `${response.status} ${response.statusText}\n${
    response.headers.get("content-type") ?? ""
  }\n\n${shown}`;
}

/** No props: the operations are the page's own forms. */
export default function ApiConsole() {
  const [signedIn, setSignedIn] = useState<boolean | null>(null);
  const [bearer, setBearer] = useState("");
  const [admin, setAdmin] = useState("");
  // The listener reads the latest credentials without being added again on each keystroke.
  const credentials = useRef({ bearer: "", admin: "" });
  credentials.current = { bearer, admin };

  useEffect(() => {
    accessToken().then((token) => {
      if (token) setBearer(token);
      setSignedIn(Boolean(token));
    }).catch(() => setSignedIn(false));
    const send = async (event: Event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement) || !form.classList.contains("api-try")) return;
      event.preventDefault();
      const out = form.querySelector<HTMLElement>(".api-result");
      if (!out) return;
      out.hidden = false;
      out.textContent = "Sending…";
      const { url, init } = requestOf(form, credentials.current);
      try {
        out.textContent = await describe(await fetch(url, init));
      } catch (error) {
        out.textContent = `The request failed: ${(error as Error).message}`;
      }
    };
    document.addEventListener("submit", send);
    return () => document.removeEventListener("submit", send);
  }, []);

  return (
    <div class="api-console">
      <p class="status" role="status">
        {signedIn === true
          ? "Signed in: “Try it” sends your access token."
          : signedIn === false
          ? "Not signed in: sign in, or paste a Bearer token here."
          : ""}
      </p>
      {signedIn === false
        ? (
          <div class="field">
            <label for="api-bearer">Bearer token</label>
            <input
              id="api-bearer"
              autocomplete="off"
              spellcheck={false}
              value={bearer}
              onInput={(e) => setBearer(e.currentTarget.value.trim())}
            />
          </div>
        )
        : null}
      <details>
        <summary>Admin token (for the admin routes)</summary>
        <div class="field">
          <label for="api-admin">x-admin-token</label>
          <input
            id="api-admin"
            type="password"
            autocomplete="off"
            value={admin}
            onInput={(e) => setAdmin(e.currentTarget.value.trim())}
          />
        </div>
      </details>
    </div>
  );
}
