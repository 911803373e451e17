/**
 * Which watch region the movie page shows: the one asked for in `?region=` (a country's code;
 * "UK", the name people type for the United Kingdom, is GB), else the one the reader chose
 * before (remembered in a cookie), else the service's default. Countries are named in English
 * ("United Kingdom", not "GB").
 */
import { REGION_CODES, regionCode } from "../core/regions.ts";

/** The cookie that remembers a reader's region (not personal: a country code). */
export const REGION_COOKIE = "watch-region";

// Codes people use that ISO 3166-1 does not assign (UK is only "exceptionally reserved").
const ALIASES: Record<string, string> = { UK: "GB" };

/** `raw` as an assigned region code (aliases resolved), or null. */
export function readRegion(raw: string | undefined): string | null {
  const upper = (raw ?? "").trim().toUpperCase();
  return regionCode(ALIASES[upper] ?? upper);
}

const NAMES = new Intl.DisplayNames(["en"], { type: "region" });

/** A region's English name: "GB" → "United Kingdom" (the code itself if Intl has no name). */
export function regionName(code: string): string {
  try {
    return NAMES.of(code) ?? code;
  } catch {
    return code;
  }
}

/** Every region as `{code, name}`, by name. */
export function regionChoices(): { code: string; name: string }[] {
  return REGION_CODES.map((code) => ({ code, name: regionName(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, "en"));
}
