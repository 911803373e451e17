/**
 * The body of /watched and /mylist: the numbers (watched only), the sort and filter form, the
 * user's cards in the ListGrid island, or a sign-in prompt.
 */
import type { ComponentChildren } from "preact";
import type { ListCard } from "../islands/ListGrid.tsx";
import type { ListQuery, WatchedStats } from "../lib/library/entries/mod.ts";
import { usePage } from "../lib/http/page_context.ts";
import type { PageStanding } from "../lib/web/page_links.ts";
import { isCustomQuery, ListControls } from "./ListControls.tsx";
import { PageCount } from "./PageCount.tsx";
import { SignInPrompt } from "./SignInPrompt.tsx";
import { StatsStrip } from "./StatsStrip.tsx";
import { Title } from "./Title.tsx";
import { ListGrid } from "../islands.gen.ts";

/** What a signed-in user's list page shows. */
export interface ListPageData {
  cards: ListCard[];
  query: ListQuery;
  /** The URL named the order (else the form offers the sort's usual one). */
  orderGiven?: boolean;
  /** The watched page's numbers, and the (UTC) year "this year" means. */
  stats?: { stats: WatchedStats; year: number };
  /** Which page of 60 this is (docs/website.md), the list's total, and the links around it. */
  paging?: PageStanding;
  /** The user has saved a Seerr: cards get its Request button (docs/trakt.md). */
  seerr?: boolean;
}

/** `data` undefined means signed out. */
export function ListPage(
  { list, heading, intro, data, path, filters }: {
    list: "watched" | "mylist";
    heading: string;
    intro: string;
    data?: ListPageData;
    path: string;
    /** More filters, shown under the intro (My List's "Available to me"). */
    filters?: ComponentChildren;
  },
) {
  const { imageBaseUrl } = usePage();
  const filtered = data
    ? data.query.genre !== undefined || data.query.rated !== undefined ||
      data.query.availableMine === true
    : false;
  return (
    <section aria-labelledby="list-heading">
      <Title>{heading}</Title>
      <h1 id="list-heading">{heading}</h1>
      <p class="lead">{intro}</p>
      {data ? filters : null}
      {data
        ? (
          <>
            {data.stats ? <StatsStrip {...data.stats} /> : null}
            {data.cards.length > 0 || isCustomQuery(data.query, list)
              ? (
                <ListControls
                  list={list}
                  query={data.query}
                  path={path}
                  orderGiven={data.orderGiven}
                />
              )
              : null}
            {data.paging && data.paging.total > 0 ? <PageCount {...data.paging} /> : null}
            <ListGrid
              list={list}
              cards={data.cards}
              imageBaseUrl={imageBaseUrl}
              filtered={filtered}
              more={data.paging?.more}
              seerr={data.seerr}
            />
          </>
        )
        : <SignInPrompt what={`see ${heading}`} next={path} />}
    </section>
  );
}
