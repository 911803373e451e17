/** Regions by country name (English), for the region choice on /account. */
import { REGION_CODES } from "@/lib/core/regions.ts";

let names: [string, string][] | undefined;

/** `[code, name]` of every assigned region, sorted by name. */
export function regionNames(): [string, string][] {
  if (names) return names;
  const display = new Intl.DisplayNames(["en"], { type: "region" });
  names = REGION_CODES.map((code): [string, string] => [code, display.of(code) ?? code])
    .sort((a, b) => a[1].localeCompare(b[1], "en"));
  return names;
}
