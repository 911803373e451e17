/**
 * The setup steps of each media server's webhook on /account/connections (docs/connections.md),
 * rendered by the server so they read without JavaScript.
 */

/** The steps for Plex, Jellyfin, Emby and scripts. */
export function WebhookSetup() {
  return (
    <div class="webhook-setup">
      <h3>Plex</h3>
      <ol>
        <li>
          Webhooks need Plex Pass on the server owner's account. In Plex Web open{" "}
          <strong>Settings › Webhooks</strong> (under your account) and choose{" "}
          <strong>Add Webhook</strong>.
        </li>
        <li>Paste your Plex webhook URL and save.</li>
        <li>
          Finish a film (Plex marks it watched at 90%) or rate it: it appears under Recent events.
          If several people share the server, enter your Plex account name below so only your plays
          count.
        </li>
      </ol>
      <h3>Jellyfin</h3>
      <ol>
        <li>
          In <strong>Dashboard › Plugins › Catalog</strong> install <strong>Webhook</strong>{" "}
          and restart Jellyfin.
        </li>
        <li>
          Open the Webhook plugin's settings and choose <strong>Add Generic Destination</strong>.
        </li>
        <li>
          Paste your Jellyfin webhook URL as <strong>Webhook Url</strong>; under{" "}
          <strong>Notification Type</strong> tick <strong>Playback Stop</strong> and{" "}
          <strong>User Data Saved</strong>; under <strong>User Filter</strong> pick yourself; under
          {" "}
          <strong>Item Type</strong> tick <strong>Movies</strong> and{" "}
          <strong>Send All Properties (ignores template)</strong>. Save.
        </li>
      </ol>
      <h3>Emby</h3>
      <ol>
        <li>
          In <strong>Settings › Notifications</strong> choose <strong>Add Notification</strong> ›
          {" "}
          <strong>Webhooks</strong>.
        </li>
        <li>
          Paste your Emby webhook URL, choose the content type{" "}
          <strong>application/json</strong>, and tick the events <strong>Playback: Stop</strong> and
          {" "}
          <strong>User: Mark Played</strong>; limit the events to your own user. Save.
        </li>
      </ol>
      <h3>Anything else</h3>
      <p>
        POST JSON to the generic URL:{" "}
        <code>{'{"tmdbId":550,"watchedAt":"2026-11-28T21:00:00Z","rating":8}'}</code>, or{" "}
        <code>{'{"title":"Fight Club","year":1999}'}</code> when there is no TMDB id.
      </p>
    </div>
  );
}
