/** `/search?q=`: the search box and the matching movies. */
import { cardFacts, MovieCard } from "../components/MovieCard.tsx";
import { MovieGrid } from "../components/MovieGrid.tsx";
import { Notice } from "../components/Notice.tsx";
import { SearchForm } from "../components/SearchForm.tsx";
import { Title } from "../components/Title.tsx";
import { genreNames } from "../lib/catalog/genres.ts";
import type { SearchRow } from "../lib/catalog/mod.ts";
import type { Handlers, PageProps } from "../lib/http/env.ts";
import { usePage } from "../lib/http/page_context.ts";
import { type PageFailure, softFail } from "../lib/http/soft_fail.ts";
import { posterUrl } from "../lib/web/poster.ts";

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
      <h1>{q ? <>Results for “{q}”</> : "Search movies"}</h1>
      <SearchForm q={q} autofocus={!q} />
      {failure ? <Notice kind="error">{failure.message}</Notice> : null}
      {results && results.length === 0
        ? <Notice>No movies match “{q}”. Check the spelling or try another title.</Notice>
        : null}
      {results?.length
        ? (
          <>
            <p class="count">{results.length === 1 ? "1 movie" : `${results.length} movies`}</p>
            <MovieGrid label={`Results for ${q}`}>
              {results.map((row) => (
                <MovieCard
                  key={row.id}
                  id={row.id}
                  title={row.title}
                  posterUrl={posterUrl(imageBaseUrl, row.poster_path)}
                  facts={cardFacts(
                    Number(row.release_date.slice(0, 4)) || 0,
                    genreNames(row.genre_ids),
                    row.vote_average,
                  )}
                />
              ))}
            </MovieGrid>
          </>
        )
        : null}
    </>
  );
}
