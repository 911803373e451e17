/** The movie search box: a plain GET form to /search, so it works without JavaScript. */

/** `q` prefills the box; `autofocus` on the search page itself; `onInput` for live search. */
export function SearchForm(
  { q = "", autofocus = false, onInput }: {
    q?: string;
    autofocus?: boolean;
    onInput?: (value: string) => void;
  },
) {
  return (
    <form class="search" role="search" method="get" action="/search">
      <label for="search-q">Search movies</label>
      <div class="search-row">
        <input
          id="search-q"
          type="search"
          name="q"
          value={q}
          placeholder="Title, e.g. Fight Club"
          required
          maxLength={200}
          autocomplete="off"
          autofocus={autofocus}
          onInput={onInput ? (e) => onInput(e.currentTarget.value) : undefined}
        />
        <button type="submit">Search</button>
      </div>
    </form>
  );
}
