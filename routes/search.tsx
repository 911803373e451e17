/**
 * `/search?q=&page=`: the search box and one page of matching movies (the LiveSearch island),
 * with a "More results" link to the next page that works without JavaScript.
 */
import { Title } from "../components/Title.tsx";
import { pageParam, type SearchRow, type UnlistedRow } from "../lib/catalog/mod.ts";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import { usePage } from "../lib/http/page_context.ts";
import { type PageFailure, softFail } from "../lib/http/soft_fail.ts";
import { LiveSearch } from "../islands.gen.ts";

interface Data {
  q: string;
  page: number;
  totalPages?: number;
  results?: SearchRow[];
  unlisted?: UnlistedRow[];
  failure?: PageFailure;
  signedIn?: boolean;
}

export const handler: Handlers = {
  async GET(c) {
    const q = (c.req.query("q") ?? "").trim().slice(0, 200);
    // A page out of 1-500 (or not a number) is the first: a hand-edited link still finds movies.
    const parsed = pageParam.safeParse(c.req.query("page") ?? "1");
    const page = parsed.success ? parsed.data : 1;
    const signedIn = Boolean(c.get("user"));
    if (!q) return c.var.render({ q, page, signedIn } satisfies Data);
    // wait: false, as the API route: a full window answers at once instead of stalling the page.
    const { value, failure } = await softFail(
      c,
      () => c.var.services.catalog.search(q, { page, wait: false }),
    );
    return c.var.render(
      {
        q,
        page,
        totalPages: value?.value.totalPages,
        results: value?.value.results,
        unlisted: value?.value.unlisted,
        failure,
        signedIn,
      } satisfies Data,
      { status: failure?.status },
    );
  },
};

export default function Search({ data }: PageProps<Data>) {
  const { imageBaseUrl } = usePage();
  const { q, page, totalPages, results, unlisted, failure, signedIn } = data;
  const suffix = page > 1 ? ` · page ${page}` : "";
  return (
    <>
      <Title>{q ? `“${q}”${suffix} · Search` : "Search"}</Title>
      <LiveSearch
        q={q}
        page={page}
        totalPages={totalPages}
        rows={results}
        unlisted={unlisted}
        failure={failure?.message}
        imageBaseUrl={imageBaseUrl}
        signedIn={signedIn}
      />
    </>
  );
}
