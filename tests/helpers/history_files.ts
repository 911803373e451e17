/**
 * Realistic history files for the import tests, built with the real column names and the
 * quirks of real exports: quoted titles with commas and quotes, a BOM, CRLF line ends,
 * unicode titles, missing years, TV rows in IMDb, a rewatch logged twice in the diary.
 */
import { strToU8, zipSync } from "fflate";

const encoder = new TextEncoder();

/** One CSV line, quoted as RFC 4180 asks (the tests' own writer, independent of the server's). */
function csvLine(cells: (string | number | null | undefined)[]): string {
  return cells.map((cell) => {
    const text = cell === null || cell === undefined ? "" : String(cell);
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  }).join(",");
}

/** A CSV file's text from a header and rows, with optional BOM and CRLF. */
export function csvText(
  header: string[],
  rows: (string | number | null | undefined)[][],
  options: { bom?: boolean; crlf?: boolean } = {},
): string {
  const eol = options.crlf ? "\r\n" : "\n";
  return (options.bom ? "\uFEFF" : "") + [header, ...rows].map(csvLine).join(eol) + eol;
}

const uri = (slug: string) => `https://boxd.it/${slug}`;

/** Letterboxd's five CSVs for a small history. */
export function letterboxdCsvs(): Record<string, string> {
  return {
    "watched.csv": csvText(["Date", "Name", "Year", "Letterboxd URI"], [
      ["2024-01-05", "Fight Club", 1999, uri("2a9q")],
      ["2024-02-10", 'Crouching Tiger, Hidden "Dragon"', 2000, uri("1ZYu")],
      ["2024-03-01", "Amélie", 2001, uri("2b0k")],
      ["2024-03-02", "Unknown Film", "", uri("zzzz")],
    ], { crlf: true }),
    "diary.csv": csvText(
      ["Date", "Name", "Year", "Letterboxd URI", "Rating", "Rewatch", "Tags", "Watched Date"],
      [
        ["2024-01-05", "Fight Club", 1999, uri("a1"), "4.5", "", "", "2024-01-04"],
        ["2024-06-20", "Fight Club", 1999, uri("a2"), "5", "Yes", "rewatch, cinema", "2024-06-19"],
        [
          "2024-02-10",
          'Crouching Tiger, Hidden "Dragon"',
          2000,
          uri("a3"),
          "3",
          "",
          "",
          "2024-02-09",
        ],
      ],
      { bom: true },
    ),
    "ratings.csv": csvText(["Date", "Name", "Year", "Letterboxd URI", "Rating"], [
      ["2024-06-20", "Fight Club", 1999, uri("2a9q"), "5"],
      ["2024-03-01", "Amélie", 2001, uri("2b0k"), "0.5"],
    ]),
    "watchlist.csv": csvText(["Date", "Name", "Year", "Letterboxd URI"], [
      ["2024-04-01", "千と千尋の神隠し", 2001, uri("spir")],
      ["2024-04-02", "Fight Club", 1999, uri("2a9q")],
    ]),
    "reviews.csv": csvText(
      [
        "Date",
        "Name",
        "Year",
        "Letterboxd URI",
        "Rating",
        "Rewatch",
        "Review",
        "Tags",
        "Watched Date",
      ],
      [[
        "2024-03-01",
        "Amélie",
        2001,
        uri("r1"),
        "0.5",
        "",
        'Not for me, "whimsy" overload.\nSecond line.',
        "",
        "2024-02-28",
      ]],
    ),
  };
}

/** Letterboxd's export ZIP: the five CSVs plus files the import ignores. */
export function letterboxdZip(csvs: Record<string, string> = letterboxdCsvs()): Uint8Array {
  const entries: Record<string, Uint8Array> = {
    "profile.csv": strToU8("Date Joined,Username\n2020-01-01,someone\n"),
    "comments.csv": strToU8("Date,Content,Comment\n"),
    "likes/films.csv": strToU8("Date,Name,Year,Letterboxd URI\n2024-01-01,Heat,1995,x\n"),
    "deleted/diary.csv": strToU8(
      "Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n" +
        "2024-01-01,Heat,1995,x,5,,,2024-01-01\n",
    ),
  };
  for (const [name, text] of Object.entries(csvs)) entries[name] = strToU8(text);
  return zipSync(entries);
}

const traktMovie = (title: string, year: number | null, tmdb: number | null) => ({
  title,
  year,
  ids: { trakt: tmdb ?? 1, slug: title.toLowerCase(), imdb: "tt0000001", tmdb },
});

/** Trakt's four movie exports, keyed by their file names. */
export function traktFiles(): Record<string, unknown[]> {
  return {
    "watched-movies.json": [
      {
        plays: 2,
        last_watched_at: "2024-06-19T21:00:00.000Z",
        last_updated_at: "2024-06-19T21:00:00.000Z",
        movie: traktMovie("Fight Club", 1999, 550),
      },
      {
        plays: 1,
        last_watched_at: "2024-02-09T20:00:00.000Z",
        last_updated_at: "2024-02-09T20:00:00.000Z",
        movie: traktMovie("Amélie", 2001, 194),
      },
    ],
    "history.json": [
      {
        id: 1,
        watched_at: "2024-01-04T20:00:00.000Z",
        action: "watch",
        type: "movie",
        movie: traktMovie("Fight Club", 1999, 550),
      },
      {
        id: 2,
        watched_at: "2024-01-05T20:00:00.000Z",
        action: "watch",
        type: "episode",
        episode: { season: 1, number: 1, title: "Pilot" },
        show: { title: "Breaking Bad", year: 2008, ids: { tmdb: 1396 } },
      },
    ],
    "ratings-movies.json": [
      {
        rated_at: "2024-06-20T10:00:00.000Z",
        rating: 9,
        type: "movie",
        movie: traktMovie("Fight Club", 1999, 550),
      },
    ],
    "watchlist-movies.json": [
      {
        rank: 1,
        id: 7,
        listed_at: "2024-04-01T00:00:00.000Z",
        notes: null,
        type: "movie",
        movie: traktMovie("Spirited Away", 2001, 129),
      },
    ],
  };
}

/** A file's bytes. */
export function bytesOf(text: string): Uint8Array {
  return encoder.encode(text);
}

/** A JSON file's bytes. */
export function jsonBytes(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value, null, 2));
}
