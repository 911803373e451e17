/** What the import page tells the user about a run and about a refused upload. */
import type { HistoryImportRun } from "../library/history/import/runs.ts";
import { ApiError } from "./api.ts";

/** The service a run's file came from, as the page names it. */
export const FORMAT_NAMES: Record<HistoryImportRun["format"], string> = {
  letterboxd: "Letterboxd",
  trakt: "Trakt",
  imdb: "IMDb",
  service: "a Movies export",
};

/** Why a row did not match, in words. */
export const REASONS: Record<HistoryImportRun["unmatched"][number]["reason"], string> = {
  not_found: "no movie of this title and year was found",
  ambiguous: "several movies have this title and year",
  invalid_row: "the title is too long to be one (over 500 characters)",
};

/** The site's search for an unmatched film, so the user can add it by hand. */
export function searchHref(title: string): string {
  return `/search?q=${encodeURIComponent(title)}`;
}

/**
 * The counts of a run, labelled in the order the page lists them: films first (a film the
 * file names in three rows is one film), then what the rows did, then what the limits left out
 * (only when they left something out: the counts are absent otherwise).
 */
export function countLines(run: HistoryImportRun): [string, number][] {
  const c = run.counts;
  const f = run.films;
  // Runs from before films were counted have only row counts.
  const lines: [string, number][] = f.total > 0
    ? [
      ["Films in the file", f.total],
      ["Matched", f.matched],
      ["Not matched", f.unmatched],
      ["Added", c.added],
      ["Updated", c.updated],
      ["Rows read", c.rows],
      ["Rows skipped (not movies, or nothing new)", c.skipped],
    ]
    : [
      ["Rows read", c.rows],
      ["Matched", c.matched],
      ["Added", c.added],
      ["Updated", c.updated],
      ["Skipped (not movies, or nothing new)", c.skipped],
      ["Not matched", c.unmatched],
    ];
  if (c.listFull) lines.push(["Of those skipped, past a list's limit", c.listFull]);
  if (c.tooManyViewings) {
    lines.push([
      "Viewings not logged (past the diary's 1,000 of a film or 200,000 in all)",
      c.tooManyViewings,
    ]);
  }
  return lines;
}

/** The message of a refused upload or a failed poll. */
export function uploadError(error: unknown): string {
  if (!(error instanceof ApiError)) return "Something went wrong. Please try again.";
  switch (error.code) {
    case "file_too_large":
      return "That file is larger than 20 MiB. Upload the export as it came (ZIP or CSV).";
    case "unknown_format":
      return "That file is not an export this site reads: a Letterboxd ZIP or CSV, a Trakt " +
        "JSON file, an IMDb CSV, or a Movies export.";
    case "invalid_file":
      return "That file could not be read: the archive is damaged, or too large once unpacked. " +
        error.message;
    case "too_many_rows":
      return "That file has more than 500,000 rows. Split it and import the parts one by one.";
    case "import_running":
      return "An import of yours is still running. Wait for it to finish, then upload again.";
    case "unauthorized":
      return "Your session has expired. Sign in again to import.";
    default:
      return error.message;
  }
}
