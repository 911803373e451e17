/** The body of /watched and /mylist: the user's cards in the ListGrid island, or a sign-in prompt. */
import ListGridIsland from "../islands/ListGrid.tsx";
import type { MovieCard } from "../lib/lists/cards.ts";
import { island } from "../lib/http/island.tsx";
import { usePage } from "../lib/http/page_context.ts";
import { SignInPrompt } from "./SignInPrompt.tsx";
import { Title } from "./Title.tsx";

const ListGrid = island("ListGrid", ListGridIsland);

/** `cards` undefined means signed out. */
export function ListPage(
  { list, heading, intro, cards, path }: {
    list: "watched" | "mylist";
    heading: string;
    intro: string;
    cards?: MovieCard[];
    path: string;
  },
) {
  const { imageBaseUrl } = usePage();
  return (
    <section aria-labelledby="list-heading">
      <Title>{heading}</Title>
      <h1 id="list-heading">{heading}</h1>
      <p class="lead">{intro}</p>
      {cards
        ? (
          <p class="hint">
            Logged movies elsewhere? <a href="/import">Import from Letterboxd, Trakt or IMDb</a>
            {" "}
            or export your lists.
          </p>
        )
        : null}
      {cards
        ? <ListGrid list={list} cards={cards} imageBaseUrl={imageBaseUrl} />
        : <SignInPrompt what={`see ${heading}`} next={path} />}
    </section>
  );
}
