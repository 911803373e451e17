/** `/mylist`: the signed-in user's saved movies, in saved order unless the URL asks otherwise. */
import { isOrder } from "../components/ListControls.tsx";
import { ListPage, type ListPageData } from "../components/ListPage.tsx";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import { parsePageQuery } from "../lib/library/entries/list_query.ts";
import { entriesPaging } from "../lib/web/entries_paging.ts";

/** The page's data, and whether the user has chosen services (the "Available to me" filter). */
type Data = ListPageData & { hasServices: boolean };

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    const url = new URL(c.req.url);
    const params = url.searchParams;
    const [settings, seerr] = await Promise.all([
      c.var.services.myStreaming.settings(user.id),
      c.var.services.seerr.settings(user.id),
    ]);
    const hasServices = settings.providerIds.length > 0;
    // With services, every card carries its badges; without, the filter is not offered.
    const query = {
      ...parsePageQuery(params, "mylist"),
      includeAvailability: hasServices,
      availableMine: hasServices && params.get("available") === "mine",
    };
    // One page of 60 (?page=N), its total counted in SQL.
    const { cards, paging } = await entriesPaging(c.var.services.entries, user.id, {
      list: "mylist",
      query,
      url,
    });
    return c.var.render(
      {
        cards,
        query,
        orderGiven: isOrder(params),
        hasServices,
        paging,
        seerr: Boolean(seerr.url),
      } satisfies Data,
    );
  },
};

/** "All" or "Available to me", keeping the sort and genre of the URL. */
function AvailabilityFilter({ url, data }: { url: URL; data: Data }) {
  if (!data.hasServices) {
    return (
      <p class="hint availability-filter">
        <a href="/account#services-heading">Choose your streaming services</a>{" "}
        to see what of your list you can watch tonight.
      </p>
    );
  }
  // Another filter starts again at the first page.
  const with_ = new URL(url);
  with_.searchParams.set("available", "mine");
  with_.searchParams.delete("page");
  const without = new URL(url);
  without.searchParams.delete("available");
  without.searchParams.delete("page");
  const on = data.query.availableMine === true;
  return (
    <nav class="availability-filter" aria-label="Availability">
      <a href={without.pathname + without.search} aria-current={on ? undefined : "page"}>All</a>
      <a href={with_.pathname + with_.search} aria-current={on ? "page" : undefined}>
        Available to me
      </a>
    </nav>
  );
}

export default function MyList({ data, url }: PageProps<Data | undefined>) {
  return (
    <ListPage
      list="mylist"
      heading="My List"
      intro="Movies you want to watch. Marking one as watched takes it off this list."
      data={data}
      path={url.pathname}
      filters={data ? <AvailabilityFilter url={url} data={data} /> : null}
    />
  );
}
