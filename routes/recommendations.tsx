/** `/recommendations`: the Recommendations island for the signed-in user, else a sign-in prompt. */
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { Title } from "../components/Title.tsx";
import RecommendationsIsland from "../islands/Recommendations.tsx";
import type { PageProps } from "../lib/http/app_env.ts";
import { island } from "../lib/http/island.tsx";

const Recommendations = island("Recommendations", RecommendationsIsland);

export default function RecommendationsPage({ url, user }: PageProps) {
  return (
    <section aria-labelledby="rec-heading">
      <Title>Recommendations</Title>
      <h1 id="rec-heading">Recommended for you</h1>
      <p class="lead">
        Suggestions based on the movies you've watched and your list. Up to 20 a day; a set is kept
        for a week unless you ask for new ones.
      </p>
      {user ? <Recommendations /> : <SignInPrompt what="get recommendations" next={url.pathname} />}
    </section>
  );
}
