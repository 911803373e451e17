/** Where each service keeps its export file, for the import page. */

const SOURCES = [
  {
    name: "Letterboxd",
    where: (
      <>
        Settings → <a href="https://letterboxd.com/settings/data/" rel="noopener">Data</a>{" "}
        → Export your data. Upload the ZIP as it comes, or one of its CSVs (watched, diary, ratings,
        watchlist, reviews). Not imported: tags, likes, lists and comments (this site has no place
        for them), and rewatches, which become one entry with the latest watch date.
      </>
    ),
  },
  {
    name: "Trakt",
    where: (
      <>
        Settings → <a href="https://trakt.tv/settings/data" rel="noopener">Data</a>{" "}
        → Export. Upload its JSON files one at a time: watched-movies.json, ratings-movies.json,
        watchlist-movies.json, or a history file.
      </>
    ),
  },
  {
    name: "IMDb",
    where: (
      <>
        On Your Ratings or your Watchlist, the ⋮ menu → Export; the CSV is then under{" "}
        <a href="https://www.imdb.com/exports/" rel="noopener">Your exports</a>. Series and episodes
        in it are skipped.
      </>
    ),
  },
  {
    name: "Movies (this site)",
    where: <>The exports below, JSON or CSV, import back here or into another account.</>,
  },
];

/** The list of services and where their exports are found. */
export function HistorySources() {
  return (
    <dl class="import-sources">
      {SOURCES.map((s) => (
        <div key={s.name}>
          <dt>{s.name}</dt>
          <dd>{s.where}</dd>
        </div>
      ))}
    </dl>
  );
}
