/**
 * CSV injection (OWASP's rule): a spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`,
 * tab or carriage return as a formula, so every CSV the service writes prefixes such a cell with
 * `'`, and the importer takes that `'` off again. A cell that already starts with quotes before
 * such a character gets one more quote, so reading back is exact for every text.
 */
const NEEDS_QUOTE = /^'*[=+\-@\t\r]/;
const QUOTED = /^'+[=+\-@\t\r]/;

/** The cell as written to a CSV: a `'` before a text a spreadsheet would run as a formula. */
export function neutraliseCell(value: string | number): string | number {
  return typeof value === "string" && NEEDS_QUOTE.test(value) ? `'${value}` : value;
}

/** The cell as read from a CSV: the inverse of `neutraliseCell` (one `'` taken off). */
export function restoreCell(value: string): string {
  return QUOTED.test(value) ? value.slice(1) : value;
}
