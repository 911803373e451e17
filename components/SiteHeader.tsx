/** The header of every page: the site name, the main navigation and the account links. */
import type { AuthUser } from "../lib/identity/auth/mod.ts";
import { usePage } from "../lib/http/page_context.ts";
import { SignOutButton } from "../islands.gen.ts";

const LINKS = [
  { href: "/", label: "Popular" },
  { href: "/search", label: "Search" },
  { href: "/watched", label: "Watched" },
  { href: "/diary", label: "Diary" },
  { href: "/mylist", label: "My List" },
  { href: "/calendar", label: "Calendar" },
  { href: "/lists", label: "Lists" },
  { href: "/recommendations", label: "For you" },
  { href: "/tonight", label: "Tonight" },
];

/** The page the installed app keeps for everyone and shows offline, to anyone signed in or not. */
const OFFLINE_PAGE = "/offline";

/**
 * `url` marks the current section; `user` switches the account links. The offline page has
 * none: it is fetched without the session and shown to whoever is offline, so "Sign in / Sign
 * up" there would tell a signed-in user they were signed out.
 */
export function SiteHeader({ url, user }: { url: URL; user?: AuthUser }) {
  const here = url.pathname;
  const next = encodeURIComponent(here + url.search);
  const auth = ["/login", "/signup", "/forgot-password", "/reset-password"].includes(here);
  const neutral = here === OFFLINE_PAGE;
  return (
    <header class="site-header">
      <div class="wrap header-row">
        <a class="brand" href="/">
          <svg class="brand-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
            <rect width="32" height="32" rx="7" />
            <rect x="6" y="8" width="20" height="16" rx="2" />
            <path d="M14 12.5v7l6-3.5z" />
          </svg>
          Movies
        </a>
        <nav aria-label="Main">
          <ul class="nav-links">
            {LINKS.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  aria-current={(link.href === "/" ? here === "/" : here.startsWith(link.href))
                    ? "page"
                    : undefined}
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="account">
          {neutral ? null : user
            ? (
              <>
                <NotificationBell
                  unread={usePage().unread ?? 0}
                  current={here === "/notifications"}
                />
                {/* Shown on phones too, shortened with an ellipsis. */}
                <a
                  class="account-email"
                  href="/account"
                  title="Your account"
                  aria-current={here === "/account" ? "page" : undefined}
                >
                  {user.email}
                </a>
                <SignOutButton />
              </>
            )
            : (
              <>
                <a href={auth ? "/login" : `/login?next=${next}`}>Sign in</a>
                <a class="button button-small" href={auth ? "/signup" : `/signup?next=${next}`}>
                  Sign up
                </a>
              </>
            )}
        </div>
      </div>
    </header>
  );
}

/** The bell: a link to /notifications with the unread count, said in words to screen readers. */
function NotificationBell({ unread, current }: { unread: number; current: boolean }) {
  const label = unread === 0 ? "Notifications" : `Notifications: ${unread} unread`;
  return (
    <a
      class="notification-bell"
      href="/notifications"
      aria-label={label}
      title={label}
      aria-current={current ? "page" : undefined}
    >
      <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
        <path d="M12 22a2 2 0 0 0 2-2h-4a2 2 0 0 0 2 2zm6-6V11a6 6 0 0 0-5-5.9V4a1 1 0 0 0-2 0v1.1A6 6 0 0 0 6 11v5l-2 2v1h16v-1z" />
      </svg>
      {unread > 0 ? <span class="bell-count">{unread > 99 ? "99+" : unread}</span> : null}
    </a>
  );
}
