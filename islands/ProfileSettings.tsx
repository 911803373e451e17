/**
 * The public profile settings on /account: a handle, a display name, whether the profile is
 * public (off until turned on) and whether it shows the watched-list figures.
 */
import { useState } from "preact/hooks";
import type { Profile } from "../lib/library/lists/profile.ts";
import { api, ApiError } from "../lib/web/api.ts";

/**
 * The form, filled with the profile the server read with the page (`null`: none made yet, so
 * the fields start empty and nothing is asked of the API until the user saves).
 */
export default function ProfileSettings({ profile }: { profile: Profile | null }) {
  const [fields, setFields] = useState({
    handle: profile?.handle ?? "",
    displayName: profile?.displayName ?? "",
    public: profile?.public ?? false,
    showStats: profile?.showStats ?? false,
  });
  const [url, setUrl] = useState<string | null>(profile?.url ?? null);
  const [status, setStatus] = useState("");

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
