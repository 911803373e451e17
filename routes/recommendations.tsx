/**
 * `/recommendations`: the user's stored set, read on the server (free: no quota, no lock, no
 * generation) with its reasons and dates, in the Recommendations island; else a sign-in prompt.
 * With services chosen, the "Only what I can stream" switch (OnlyMineSwitch); without, a link to
 * choose them (docs/availability.md).
 */
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { Title } from "../components/Title.tsx";
import { regionName } from "../lib/catalog/region_choice.ts";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import { usePage } from "../lib/http/page_context.ts";
import type { Shelf } from "../lib/recommend/mod.ts";
import { cardPosterUrl } from "../lib/web/poster.ts";
import type { SetView } from "../lib/web/recommend_picks.ts";
import type { QuotaView } from "../lib/web/recommend_text.ts";
import type { OnlyMineSwitchProps } from "../islands/OnlyMineSwitch.tsx";
import { OnlyMineSwitch, Recommendations } from "../islands.gen.ts";

interface Data {
  shelf: Shelf | null;
  quota: QuotaView | null;
  /** The switch, when services are chosen; null when none are. */
  onlyMine: OnlyMineSwitchProps | null;
  /** The user has saved a Seerr: cards get its Request button. */
  seerr: boolean;
}

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    const { recommend, myStreaming, seerr } = c.var.services;
    const [shelf, quota, services, seerrSettings] = await Promise.all([
      recommend.shelf(user.id),
      // The quota line is a nicety: a KV hiccup leaves it out rather than failing the page.
      recommend.quota(user.id).then(
        (q) => ({ limit: q.limit, remaining: q.remaining, resetAt: q.resetAt.toISOString() }),
        () => null,
      ),
      myStreaming.get(user.id),
      seerr.settings(user.id),
    ]);
    const onlyMine = services.providers.length
      ? {
        on: services.onlyMine,
        // A provider no stored movie names yet is shown by its number.
        services: services.providers.map((p) => p.name || `provider ${p.id}`),
        country: regionName(services.region),
      }
      : null;
    return c.var.render(
      { shelf, quota, onlyMine, seerr: Boolean(seerrSettings.url) } satisfies Data,
    );
  },
};

function setView(shelf: Shelf | null, imageBaseUrl: string): SetView | null {
  if (!shelf) return null;
  return {
    picks: shelf.cards.map((card) => ({
      catalogId: card.catalogId,
      reason: card.reason,
      inMyList: card.inMyList,
      title: card.title,
      year: card.year,
      genres: card.genres,
      posterUrl: cardPosterUrl(imageBaseUrl, card.posterPath),
      // A movie the store has no row for is fetched by the browser.
      loaded: card.title !== "",
    })),
    createdAt: shelf.createdAt,
    expiresAt: shelf.expiresAt,
    fresh: shelf.fresh,
  };
}

export default function RecommendationsPage({ data, url, user }: PageProps<Data | undefined>) {
  const { imageBaseUrl } = usePage();
  return (
    <section aria-labelledby="rec-heading">
      <Title>Recommendations</Title>
      <h1 id="rec-heading">Recommended for you</h1>
      <p class="lead">
        Suggestions based on the movies you've watched and your list, each with why it was picked.
        Up to 20 requests a day; a set is kept for a week unless you ask for new ones.
      </p>
      {user && data
        ? (
          <>
            {data.onlyMine
              ? (
                <>
                  <OnlyMineSwitch {...data.onlyMine} />
                  <noscript>
                    <p class="notice notice-note only-mine-nojs">
                      “Only what I can stream” needs JavaScript to change; it is{" "}
                      {data.onlyMine.on ? "on" : "off"} now.
                    </p>
                  </noscript>
                </>
              )
              : (
                <p class="hint">
                  To get only what you can stream,{" "}
                  <a href="/account#services-heading">
                    choose your services
                  </a>.
                </p>
              )}
            <Recommendations
              set={setView(data.shelf, imageBaseUrl)}
              quota={data.quota}
              seerr={data.seerr}
            />
          </>
        )
        : <SignInPrompt what="get recommendations" next={url.pathname} />}
    </section>
  );
}
