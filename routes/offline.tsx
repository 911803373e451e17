/**
 * `/offline`: what the installed app shows for a page it cannot reach and has no copy of. The
 * service worker keeps it with the shell, fetched without the session, so it is the same for
 * everyone and names nobody.
 */
import { Title } from "../components/Title.tsx";
import type { Handlers } from "../lib/http/app_env.ts";

export const handler: Handlers = {
  GET: (c) => c.var.render(),
};

export default function OfflinePage() {
  return (
    <section class="offline-page">
      <Title>You are offline</Title>
      <h1>You are offline</h1>
      <p>
        This page needs a connection, and this device has no saved copy of it. Lists you opened
        while signed in are kept on this device and open without a connection:
      </p>
      <ul>
        <li>
          <a href="/watched">Watched</a>
        </li>
        <li>
          <a href="/mylist">My List</a>
        </li>
        <li>
          <a href="/diary">Diary</a>
        </li>
        <li>
          <a href="/lists">Lists</a>
        </li>
      </ul>
      <p>Changes wait until you are back online.</p>
    </section>
  );
}
