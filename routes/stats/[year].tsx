/** `/stats/YYYY`: the year in review (docs/diary.md); printable, no JavaScript needed. */
import { SignInPrompt } from "@/components/SignInPrompt.tsx";
import { Title } from "@/components/Title.tsx";
import { YearInReview } from "@/components/YearInReview.tsx";
import type { YearReview } from "@/lib/library/diary/mod.ts";
import type { Handlers, PageProps } from "@/lib/http/app_env.ts";
import { Problem } from "@/lib/core/problem.ts";

export const handler: Handlers = {
  async GET(c) {
    const raw = c.req.param("year") ?? "";
    const year = /^\d{4}$/.test(raw) ? Number(raw) : 0;
    if (year < 1874) throw new Problem(404, "not_found", `No year at ${c.req.path}.`);
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    return c.var.render(await c.var.services.diary.review(user.id, year));
  },
};

export default function YearPage({ data, url }: PageProps<YearReview | undefined>) {
  // The handler let only a four-digit year through.
  const heading = `${url.pathname.split("/").pop()} in review`;
  return (
    <>
      <Title>{heading}</Title>
      {data ? <YearInReview {...data} /> : (
        <>
          <h1>{heading}</h1>
          <SignInPrompt what="see your year in review" next={url.pathname} />
        </>
      )}
    </>
  );
}
