/**
 * `/recommendations`: first the local picks (LocalPicks: free, no AI, no quota, with 👍/👎), then,
 * when an AI provider is configured, "Ask the AI": the user's stored set, read on the server
 * (free: no quota, no lock, no generation) with its reasons and dates, in the Recommendations
 * island; without a provider the page says plainly that the local picks are all there is
 * (docs/recommend.md, "Two stages"). Signed out, a sign-in prompt. With services chosen, the
 * "Only what I can stream" switch (OnlyMineSwitch); without, a link to choose them
 * (docs/availability.md).
 */
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { Title } from "../components/Title.tsx";
import { regionName } from "../lib/catalog/region_choice.ts";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import { usePage } from "../lib/http/page_context.ts";
import type { LocalShelfCard, Shelf } from "../lib/recommend/mod.ts";
import { cardPosterUrl } from "../lib/web/poster.ts";
import type { SetView } from "../lib/web/recommend_picks.ts";
import type { QuotaView } from "../lib/web/recommend_text.ts";
import type { OnlyMineSwitchProps } from "../islands/OnlyMineSwitch.tsx";
import { LocalPicks, OnlyMineSwitch, Recommendations } from "../islands.gen.ts";

interface Data {
  /** The local picks (free), best first. */
  local: LocalShelfCard[];
  /** An AI provider is configured: "Ask the AI" is offered. */
  ai: boolean;
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
    const [local, shelf, quota, services, seerrSettings] = await Promise.all([
      recommend.localShelf(user.id),
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
      {
        local,
        ai: c.var.deps.config.aiProviders.length > 0,
        shelf,
        quota,
        onlyMine,
        seerr: Boolean(seerrSettings.url),
      } satisfies Data,
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
      thumb: card.thumb,
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
  const onlyMine = data?.onlyMine
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
    );
  return (
    <section aria-labelledby="rec-heading">
      <Title>Recommendations</Title>
      <h1 id="rec-heading">Recommended for you</h1>
      {user && data
        ? (
          <>
            {onlyMine}
            <section class="local-picks" aria-labelledby="local-heading">
              <h2 id="local-heading">Picked from your history</h2>
              <p class="hint">
                Free and instant: films stored here that share directors, cast, keywords and genres
                with what you've watched and rated, each with why. 👍 and 👎 teach it (and the AI);
                👎 also means you won't see that film again. For tonight's mood,{" "}
                <a href="/tonight">try Tonight</a>.
              </p>
              {data.local.length
                ? (
                  <LocalPicks
                    cards={data.local.map((card) => ({
                      catalogId: card.catalogId,
                      title: card.title,
                      year: card.year,
                      genres: card.genres,
                      posterUrl: cardPosterUrl(imageBaseUrl, card.posterPath),
                      reasons: card.reasons,
                      thumb: card.thumb,
                    }))}
                  />
                )
                : (
                  <p class="notice notice-note">
                    No picks yet: there are no films stored here you haven't watched or set aside.
                  </p>
                )}
            </section>
            {data.ai
              ? (
                <section class="ai-picks" aria-labelledby="ai-heading">
                  <h2 id="ai-heading">Ask the AI</h2>
                  <p class="lead">
                    Suggestions chosen by the AI from your best picks here and its own knowledge,
                    each with why it was picked. Up to 20 requests a day; a set is kept for a week
                    unless you ask for new ones.
                  </p>
                  <Recommendations
                    set={setView(data.shelf, imageBaseUrl)}
                    quota={data.quota}
                    seerr={data.seerr}
                  />
                </section>
              )
              : (
                <p class="notice notice-note">
                  This server has no AI set up, so these picks are all there is: they come from your
                  own history here, and nothing is sent anywhere.
                </p>
              )}
          </>
        )
        : <SignInPrompt what="get recommendations" next={url.pathname} />}
    </section>
  );
}
