/** `/stats`: the signed-in user's watching of all time in numbers (docs/diary.md). */
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { Title } from "../components/Title.tsx";
import { YearInReview } from "../components/YearInReview.tsx";
import type { YearReview } from "../lib/library/diary/mod.ts";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    return c.var.render(await c.var.services.diary.review(user.id, null));
  },
};

export default function Stats({ data, url }: PageProps<YearReview | undefined>) {
  return (
    <>
      <Title>Your stats</Title>
      {data ? <YearInReview {...data} /> : (
        <>
          <h1>Your stats</h1>
          <SignInPrompt what="see your year in review" next={url.pathname} />
        </>
      )}
    </>
  );
}
