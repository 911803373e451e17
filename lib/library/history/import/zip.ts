/**
 * Reading an export ZIP through fflate with limits (docs/history.md): the central
 * directory's entry count and declared sizes are checked before anything is inflated, and only
 * the entries asked for are inflated, each stopping at its declared size, so a zip bomb is a
 * 400 `invalid_file` and never an out-of-memory or a frozen event loop.
 */
import { invalidFile } from "./csv.ts";
import { centralDirectory, inflateEntry } from "./inflate.ts";
import type { Slicer } from "./slices.ts";

/** Entries an archive may hold. */
const MAX_ZIP_ENTRIES = 1000;
/** What all of an archive's entries may add up to, unpacked. */
const MAX_UNZIPPED_BYTES = 64 * 1024 * 1024;

/** Limits of one read (tests lower them). */
export interface ZipLimits {
  maxEntries?: number;
  maxUnzippedBytes?: number;
}

/** Whether `bytes` begin like a ZIP archive (a local file header or an empty archive's end). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b &&
    ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6));
}

/**
 * The entries of `bytes` that `wanted` accepts (by path), inflated. Every entry counts toward
 * the limits, wanted or not, checked on the central directory before anything is inflated; an
 * entry is inflated only up to its declared size (inflate.ts). A corrupt archive or one past a
 * limit is 400 `invalid_file`.
 */
export async function readZip(
  bytes: Uint8Array,
  wanted: (path: string) => boolean,
  options: ZipLimits & { slicer: Slicer },
): Promise<Map<string, Uint8Array>> {
  const maxEntries = options.maxEntries ?? MAX_ZIP_ENTRIES;
  const maxBytes = options.maxUnzippedBytes ?? MAX_UNZIPPED_BYTES;
  const entries = centralDirectory(bytes);
  if (entries.length > maxEntries) {
    throw invalidFile(`The archive is too large: more than ${maxEntries} entries.`);
  }
  const total = entries.reduce((sum, e) => sum + e.size, 0);
  if (total > maxBytes) {
    throw invalidFile(
      `The archive is too large: more than ${Math.round(maxBytes / 1048576)} MiB when unpacked.`,
    );
  }
  const files = new Map<string, Uint8Array>();
  for (const entry of entries) {
    if (entry.name.endsWith("/") || !wanted(entry.name)) continue;
    files.set(entry.name, await inflateEntry(bytes, entry, options.slicer));
  }
  return files;
}
