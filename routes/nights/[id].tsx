/**
 * `/nights/:id`: a movie night on a phone (docs/nights.md, "The page"), in the NightVote island;
 * opened by the join link (`?token=`) a signed-in user joins; signed out, to sign in and back
 * here with the token kept.
 */
import { SignInPrompt } from "@/components/SignInPrompt.tsx";
import { Title } from "@/components/Title.tsx";
import type { Handlers, PageProps } from "@/lib/http/app_env.ts";
import { usePage } from "@/lib/http/page_context.ts";
import { nightIdOf } from "@/lib/http/night_params.ts";
import { NightVote } from "@/islands.gen.ts";

interface Data {
  id: string;
  token?: string;
  region: string;
}

export const handler: Handlers = {
  async GET(c) {
    const id = nightIdOf(c);
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    const token = c.req.query("token");
    const services = await c.var.services.myStreaming.settings(user.id);
    // The token is in the URL: never cached, never sent on as a referrer.
    c.header("cache-control", "no-store");
    c.header("referrer-policy", "no-referrer");
    return c.var.render({ id, token: token || undefined, region: services.region } satisfies Data);
  },
};

export default function NightPage({ data, url }: PageProps<Data | undefined>) {
  const { imageBaseUrl } = usePage();
  return (
    <section aria-labelledby="night-heading" class="night-page">
      <Title>Movie night</Title>
      <h1 id="night-heading">Movie night</h1>
      {data
        ? (
          <NightVote
            nightId={data.id}
            token={data.token}
            imageBaseUrl={imageBaseUrl}
            region={data.region}
          />
        )
        : <SignInPrompt what="join this movie night" next={url.pathname + url.search} />}
    </section>
  );
}
