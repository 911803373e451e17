/** `/import`: upload a history file and follow its run; export the lists; or a sign-in prompt. */
import { HistorySources } from "../components/HistorySources.tsx";
import { SignInPrompt } from "../components/SignInPrompt.tsx";
import { Title } from "../components/Title.tsx";
import type { HistoryImportRun } from "../lib/library/history/import/runs.ts";
import type { Handlers, PageProps } from "../lib/http/app_env.ts";
import { ExportLinks, HistoryImport } from "../islands.gen.ts";

export const handler: Handlers = {
  async GET(c) {
    const user = c.get("user");
    if (!user) return c.var.render(undefined);
    const [latest] = await c.var.services.historyImport.list(user.id);
    return c.var.render({ latest: latest ?? null });
  },
};

export default function ImportPage(
  { data, url }: PageProps<{ latest: HistoryImportRun | null } | undefined>,
) {
  return (
    <section aria-labelledby="import-heading" class="import-page">
      <Title>Import and export</Title>
      <h1 id="import-heading">Bring your history</h1>
      <p class="lead">
        Import the movies you logged on Letterboxd, Trakt or IMDb: watched movies with their
        ratings, dates and reviews go to Watched, watchlists to My List. Importing a file twice adds
        nothing new, and a rating or date you set here more recently is kept.
      </p>
      {data
        ? (
          <>
            <HistoryImport latest={data.latest} />
            <h2>Where to find your export</h2>
            <HistorySources />
            <h2>Export</h2>
            <p class="lead">
              Your lists with ratings, dates and notes. The CSVs use the columns Letterboxd's
              importer reads.
            </p>
            <ExportLinks />
          </>
        )
        : (
          <>
            <SignInPrompt what="import or export your history" next={url.pathname} />
            <h2>Where to find your export</h2>
            <HistorySources />
          </>
        )}
    </section>
  );
}
