/** The footer of every page: the history import/export link and TMDB's required attribution. */

/** The attribution TMDB's terms ask for. */
export function SiteFooter() {
  return (
    <footer class="site-footer">
      <div class="wrap">
        <p>
          <a href="/import">Import your history</a>{" "}
          from Letterboxd, Trakt or IMDb, or export your lists.
        </p>
        <p>
          Movie data and images from{" "}
          <a href="https://www.themoviedb.org/" rel="noopener">TMDB</a>. This product uses the TMDB
          API but is not endorsed or certified by TMDB.
        </p>
      </div>
    </footer>
  );
}
