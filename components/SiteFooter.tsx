/** The footer of every page: TMDB's required attribution. */

/** The attribution TMDB's terms ask for. */
export function SiteFooter() {
  return (
    <footer class="site-footer">
      <div class="wrap">
        <p>
          Movie data and images from{" "}
          <a href="https://www.themoviedb.org/" rel="noopener">TMDB</a>. This product uses the TMDB
          API but is not endorsed or certified by TMDB.
        </p>
      </div>
    </footer>
  );
}
