/**
 * Reading an export ZIP through fflate with limits (contract section 11): the central
 * directory's entry count and declared sizes are checked before anything is inflated, and only
 * the entries asked for are inflated, each into a buffer of its declared size, so a zip bomb
 * is a 400 `invalid_file` and never an out-of-memory.
 */
import { unzipSync } from "fflate";
import { invalidFile } from "./csv.ts";

/** Entries an archive may hold. */
export const MAX_ZIP_ENTRIES = 1000;
/** What all of an archive's entries may add up to, unpacked. */
export const MAX_UNZIPPED_BYTES = 64 * 1024 * 1024;

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
 * the limits, wanted or not; a corrupt archive or one past a limit is 400 `invalid_file`.
 */
export function readZip(
  bytes: Uint8Array,
  wanted: (path: string) => boolean,
  limits: ZipLimits = {},
): Map<string, Uint8Array> {
  const maxEntries = limits.maxEntries ?? MAX_ZIP_ENTRIES;
  const maxBytes = limits.maxUnzippedBytes ?? MAX_UNZIPPED_BYTES;
  let entries = 0;
  let total = 0;
  let files: Record<string, Uint8Array>;
  try {
    // The filter sees each central directory record before any data is inflated.
    files = unzipSync(bytes, {
      filter(file) {
        entries++;
        total += file.originalSize;
        if (entries > maxEntries) throw new LimitError(`more than ${maxEntries} entries`);
        if (total > maxBytes) {
          throw new LimitError(`more than ${Math.round(maxBytes / 1048576)} MiB when unpacked`);
        }
        return !file.name.endsWith("/") && wanted(file.name);
      },
    });
  } catch (error) {
    if (error instanceof LimitError) {
      throw invalidFile(`The archive is too large: ${error.message}.`);
    }
    throw invalidFile("The archive is corrupt or not a ZIP file.");
  }
  return new Map(Object.entries(files));
}

class LimitError extends Error {}
