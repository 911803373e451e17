/**
 * The public profile settings on /account: a handle, a display name, whether the profile is
 * public (off until turned on) and whether it shows the watched-list figures.
 */
import { useEffect, useState } from "preact/hooks";
import type { Profile } from "../lib/library/lists/profile.ts";
import { api, ApiError } from "../lib/web/api.ts";

/** The form, filled from GET /api/me/profile once the page is up. */
export default function ProfileSettings() {
  const [fields, setFields] = useState({
    handle: "",
    displayName: "",
    public: false,
    showStats: false,
  });
  const [url, setUrl] = useState<string | null>(null);
  const [status, setStatus] = useState("");

  useEffect(() => {
    api<Profile>("/api/me/profile", { auth: true }).then(({ data }) => {
      const { url, ...rest } = data;
      setFields(rest);
      setUrl(url);
    }).catch((error) => {
      if (!(error instanceof ApiError && error.code === "no_profile")) setStatus(error.message);
    });
  }, []);

  async function save(e: Event) {
    e.preventDefault();
    try {
      const { data } = await api<Profile>("/api/me/profile", {
        method: "PUT",
        body: fields,
        auth: true,
      });
      setUrl(data.url);
      setStatus(data.public ? "Saved: your profile is public." : "Saved: your profile is private.");
    } catch (error) {
      setStatus(
        error instanceof ApiError && error.code === "handle_taken"
          ? "Someone else has that handle; try another."
          : (error as Error).message,
      );
    }
  }

  const set = (key: keyof typeof fields) => (e: Event) => {
    const el = e.target as HTMLInputElement;
    setFields({ ...fields, [key]: el.type === "checkbox" ? el.checked : el.value });
  };

  return (
    <form class="profile-settings" onSubmit={save}>
      <label for="profile-handle">Handle</label>
      <input
        id="profile-handle"
        required
        pattern="[a-z0-9_]{3,30}"
        aria-describedby="profile-handle-hint"
        value={fields.handle}
        onInput={set("handle")}
      />
      <p id="profile-handle-hint" class="hint">3-30 lower-case letters, digits or _.</p>
      <label for="profile-name">Display name</label>
      <input
        id="profile-name"
        required
        maxLength={40}
        value={fields.displayName}
        onInput={set("displayName")}
      />
      <label class="check">
        <input type="checkbox" checked={fields.public} onChange={set("public")} />{" "}
        Public profile (your public lists, at /u/your-handle)
      </label>
      <label class="check">
        <input type="checkbox" checked={fields.showStats} onChange={set("showStats")} />{" "}
        Show my watched-list figures on it
      </label>
      <button type="submit" class="button">Save profile</button>
      {url && fields.public
        ? (
          <p>
            Your profile: <a href={url}>{url}</a>
          </p>
        )
        : null}
      <p class="form-status" role="status" aria-live="polite">{status}</p>
    </form>
  );
}
