/**
 * `/tonight`: what to watch tonight from a few words, mood presets, a runtime limit, "only what I
 * can stream" and "from My List" (docs/recommend.md, "Tonight"), in the Tonight island; signed
 * out, a sign-in prompt. The server reads only whether the user has chosen services and whether
 * an AI reads the words; nothing is asked until the form is sent.
 */
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { Title } from "../components/Title.tsx";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import { usePage } from "../lib/http/page_context.ts";
import { MOOD_KEYS, MOODS } from "../lib/recommend/tonight/mod.ts";
import { Tonight } from "../islands.gen.ts";

interface Data {
  hasServices: boolean;
  aiReadsWords: boolean;
}

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    const services = await c.var.services.myStreaming.get(user.id);
    return c.var.render(
      {
        hasServices: services.providers.length > 0,
        aiReadsWords: c.var.deps.config.aiProviders.length > 0,
      } satisfies Data,
    );
  },
};

export default function TonightPage({ data, url, user }: PageProps<Data | undefined>) {
  const { imageBaseUrl } = usePage();
  return (
    <section aria-labelledby="tonight-heading">
      <Title>Tonight</Title>
      <h1 id="tonight-heading">What to watch tonight</h1>
      <p class="lead">
        Say what you feel like, or pick a mood; the films come from this site's catalog, ranked by
        your own taste, never one you've watched or said no to.
      </p>
      {user && data
        ? (
          <>
            <noscript>
              <p class="notice notice-note">
                Tonight needs JavaScript to search; <a href="/recommendations">your picks</a>{" "}
                read without it.
              </p>
            </noscript>
            <Tonight
              moods={MOOD_KEYS.map((key) => ({ key, label: MOODS[key].label }))}
              hasServices={data.hasServices}
              aiReadsWords={data.aiReadsWords}
              imageBaseUrl={imageBaseUrl}
            />
          </>
        )
        : <SignInPrompt what="find a film for tonight" next={url.pathname} />}
    </section>
  );
}
