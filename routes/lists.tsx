/** `/lists`: the signed-in user's own lists, with a form to make a new one. */
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { Title } from "../components/Title.tsx";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import type { ListSummary } from "../lib/library/lists/mod.ts";
import { NewList } from "../islands.gen.ts";

const VISIBILITY = { private: "Private", unlisted: "Anyone with the link", public: "Public" };

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    return c.var.render(await c.var.services.lists.lists(user.id));
  },
};

export default function Lists({ data, url }: PageProps<ListSummary[] | undefined>) {
  return (
    <section aria-labelledby="lists-title">
      <Title>Your lists</Title>
      <h1 id="lists-title">Your lists</h1>
      {data === undefined
        ? <SignInPrompt what="make lists of your own and share them" next={url.pathname} />
        : (
          <>
            <NewList />
            {data.length === 0
              ? <p class="empty">No lists yet. Name one above, or add a movie from its page.</p>
              : (
                <ul class="user-lists">
                  {data.map((l) => (
                    <li key={l.id}>
                      <a href={`/lists/${l.id}`}>{l.name}</a>{" "}
                      <span class="muted">
                        {l.count} {l.count === 1 ? "movie" : "movies"} · {VISIBILITY[l.visibility]}
                        {l.ranked ? " · ranked" : ""}
                      </span>
                      {l.description ? <p>{l.description}</p> : null}
                    </li>
                  ))}
                </ul>
              )}
          </>
        )}
    </section>
  );
}
