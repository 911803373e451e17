/**
 * The sort and filter form of a list page: a plain GET form, so the choice lives in the URL
 * and works without JavaScript (bookmarkable, back button included).
 */
import { MOVIE_GENRES } from "../lib/catalog/genres.ts";
import type { ListQuery } from "../lib/library/entries/mod.ts";

const SORTS = {
  watched: [
    ["added", "Date added"],
    ["watched_on", "Date watched"],
    ["rating", "Your rating"],
    ["title", "Title"],
    ["year", "Year"],
    ["runtime", "Runtime"],
  ],
  mylist: [
    ["saved", "Date saved"],
    ["title", "Title"],
    ["year", "Year"],
    ["runtime", "Runtime"],
  ],
} as const;

const GENRES = [...MOVIE_GENRES.values()].sort();

/** Whether `query` differs from the list's own order and content. */
export function isCustomQuery(query: ListQuery, list: "watched" | "mylist"): boolean {
  const base = list === "watched" ? "added" : "saved";
  const baseOrder = list === "watched" ? "desc" : "asc";
  return query.sort !== base || query.order !== baseOrder || query.genre !== undefined ||
    query.rated !== undefined;
}

/** Whether the URL names a valid order (`asc` or `desc`). */
export function isOrder(params: URLSearchParams): boolean {
  const order = params.get("order");
  return order === "asc" || order === "desc";
}

function Select(
  { name, label, value, options }: {
    name: string;
    label: string;
    value: string;
    options: readonly (readonly [string, string])[];
  },
) {
  const id = `list-${name}`;
  return (
    <div class="control">
      <label for={id}>{label}</label>
      <select id={id} name={name}>
        {options.map(([v, text]) => <option key={v} value={v} selected={v === value}>{text}
        </option>)}
      </select>
    </div>
  );
}

/** The form for `list`, showing the choice `query` is; `orderGiven` if the URL named the order. */
export function ListControls(
  { list, query, path, orderGiven }: {
    list: "watched" | "mylist";
    query: ListQuery;
    path: string;
    orderGiven?: boolean;
  },
) {
  return (
    <form class="list-controls" method="get" action={path} aria-label="Sort and filter">
      <Select name="sort" label="Sort by" value={query.sort} options={SORTS[list]} />
      {/* The sort's own order unless the URL named one: title A-Z, the others newest or most first. */}
      <Select
        name="order"
        label="Order"
        value={orderGiven ? query.order : ""}
        options={[["", "Usual order"], ["desc", "Descending"], ["asc", "Ascending"]]}
      />
      <Select
        name="genre"
        label="Genre"
        value={query.genre ?? ""}
        options={[["", "All genres"], ...GENRES.map((g) => [g, g] as const)]}
      />
      {list === "watched"
        ? (
          <Select
            name="rated"
            label="Rating"
            value={query.rated === undefined ? "" : String(query.rated)}
            options={[["", "Rated or not"], ["true", "Rated"], ["false", "Not rated"]]}
          />
        )
        : null}
      <div class="control control-actions">
        <button type="submit" class="button button-secondary">Apply</button>
        {isCustomQuery(query, list) ? <a href={path}>Reset</a> : null}
      </div>
    </form>
  );
}
