/** `/search?q=`: the search box and the matching movies (the LiveSearch island). */
import { Title } from "../components/Title.tsx";
import LiveSearchIsland from "../islands/LiveSearch.tsx";
import type { SearchRow } from "../lib/catalog/mod.ts";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import { island } from "../lib/http/island.tsx";
import { usePage } from "../lib/http/page_context.ts";
import { type PageFailure, softFail } from "../lib/http/soft_fail.ts";

const LiveSearch = island("LiveSearch", LiveSearchIsland);

interface Data {
  q: string;
  results?: SearchRow[];
  failure?: PageFailure;
}

export const handler: Handlers = {
  async GET(c) {
    const q = (c.req.query("q") ?? "").trim().slice(0, 200);
    if (!q) return c.var.render({ q } satisfies Data);
    // wait: false, as the API route: a full window answers at once instead of stalling the page.
    const { value, failure } = await softFail(
      c,
      () => c.var.services.catalog.search(q, { wait: false }),
    );
    return c.var.render({ q, results: value?.value.results, failure } satisfies Data, {
      status: failure?.status,
    });
  },
};

export default function Search({ data }: PageProps<Data>) {
  const { imageBaseUrl } = usePage();
  const { q, results, failure } = data;
  return (
    <>
      <Title>{q ? `“${q}” · Search` : "Search"}</Title>
      <LiveSearch q={q} rows={results} failure={failure?.message} imageBaseUrl={imageBaseUrl} />
    </>
  );
}
