/** `/u/:handle`: a public profile: the name, the public lists and, if shown, the figures. */
import { HeadMeta } from "@/components/HeadMeta.tsx";
import { Title } from "@/components/Title.tsx";
import type { Handlers, PageProps } from "@/lib/http/app_env.ts";
import { publicReadLimit } from "@/lib/http/middleware/public_read_limit.ts";
import type { PublicProfile } from "@/lib/library/lists/mod.ts";
import type { WatchingNowView } from "@/lib/connections/trakt/watching_now.ts";
import { WatchingNow } from "@/components/WatchingNow.tsx";
import {
  averageStars,
  countText,
  hoursText,
  ratedViewings,
} from "@/lib/library/diary/stats_figures.ts";

/** Limited per client address, as the profile read of the API. */
export const middleware = [publicReadLimit()];

export const handler: Handlers = {
  async GET(c) {
    const handle = c.req.param("handle") ?? "";
    const profile = await c.var.services.profiles.publicProfile(handle);
    // Only once the profile is known public: its owner's film watched now (docs/trakt.md).
    const watching = await c.var.services.watchingNow.onProfile(handle);
    return c.var.render({ ...profile, watching } satisfies Data);
  },
};

/** The profile and what its owner is watching now. */
type Data = PublicProfile & { watching: WatchingNowView | null };

export default function Profile({ data }: PageProps<Data>) {
  const { stats } = data;
  return (
    <section aria-labelledby="profile-title" class="profile">
      <Title>{data.displayName}</Title>
      <HeadMeta
        tags={[
          { property: "og:type", content: "profile" },
          { property: "og:title", content: `${data.displayName} (@${data.handle})` },
          { name: "description", content: `${data.displayName}'s movie lists.` },
        ]}
      />
      <h1 id="profile-title">{data.displayName}</h1>
      <p class="muted">@{data.handle}</p>
      {data.watching ? <WatchingNow watching={data.watching} whose={data.displayName} /> : null}
      {stats
        ? (
          <dl class="profile-stats">
            <dt>Films watched</dt>
            <dd>{countText(stats.films)}</dd>
            <dt>Viewings</dt>
            <dd>{countText(stats.viewings)}</dd>
            <dt>Hours</dt>
            <dd>{hoursText(stats.hours)}</dd>
            {stats.ratings.average !== null
              ? (
                <>
                  <dt>Average rating</dt>
                  <dd>
                    {averageStars(stats.ratings.average)}{" "}
                    <span class="muted">of {ratedViewings(stats.ratings.count)}</span>
                  </dd>
                </>
              )
              : null}
            {stats.genres.length
              ? (
                <>
                  <dt>Top genres</dt>
                  <dd>{stats.genres.slice(0, 5).map((g) => g.name).join(", ")}</dd>
                </>
              )
              : null}
            {stats.directors.length
              ? (
                <>
                  <dt>Top directors</dt>
                  <dd>{stats.directors.slice(0, 3).map((g) => g.name).join(", ")}</dd>
                </>
              )
              : null}
          </dl>
        )
        : null}
      <h2>Lists</h2>
      {data.lists.length === 0 ? <p class="empty">No public lists yet.</p> : (
        <ul class="user-lists">
          {data.lists.map((l) => (
            <li key={l.shareUrl}>
              <a href={new URL(l.shareUrl).pathname}>{l.name}</a>{" "}
              <span class="muted">
                {l.count} {l.count === 1 ? "movie" : "movies"}
                {l.ranked ? " · ranked" : ""}
              </span>
              {l.description ? <p>{l.description}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
