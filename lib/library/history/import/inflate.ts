/**
 * Reading a ZIP archive's entries with hard bounds: the central directory is read first (entry
 * count and declared sizes checked before anything is inflated), then each wanted entry is
 * inflated in small pieces through fflate's streaming `Inflate`, counting its output and
 * stopping the moment it passes the size the archive declared. An archive that lies about its
 * sizes (a zip bomb) is a 400 `invalid_file` after at most its declared bytes, never a 1 GiB
 * inflate on the event loop; the work yields between pieces (see slices.ts).
 */
import { Inflate } from "fflate";
import { invalidFile } from "./csv.ts";
import type { Slicer } from "./slices.ts";

/** One central directory record. */
interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
// Compressed bytes per push: deflate expands at most ~1,032 times, so a piece inflates to ~1 MiB.
const PIECE = 1024;

const corrupt = () => invalidFile("The archive is corrupt or not a ZIP file.");

/** The central directory's records; 400 `invalid_file` when it cannot be read. */
export function centralDirectory(bytes: Uint8Array): ZipEntry[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 65535); i--) {
    if (view.getUint32(i, true) === EOCD) {
      end = i;
      break;
    }
  }
  if (end < 0) throw corrupt();
  const count = view.getUint16(end + 10, true);
  const offset = view.getUint32(end + 16, true);
  if (count === 0xffff || offset === 0xffffffff) {
    throw invalidFile("ZIP64 archives are not supported; no export is that large.");
  }
  const entries: ZipEntry[] = [];
  const names = new TextDecoder();
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL) throw corrupt();
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength > bytes.length) throw corrupt();
    entries.push({
      flags: view.getUint16(at + 8, true),
      method: view.getUint16(at + 10, true),
      compressedSize: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      localOffset: view.getUint32(at + 42, true),
      name: names.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The stored bytes of `entry` (compressed as they are in the archive). */
function storedBytes(bytes: Uint8Array, entry: ZipEntry): Uint8Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== LOCAL) throw corrupt();
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  if (start + entry.compressedSize > bytes.length) throw corrupt();
  return bytes.subarray(start, start + entry.compressedSize);
}

class TooLarge extends Error {}

/**
 * `entry` inflated, at most its declared size: one byte more and decoding stops with a 400
 * `invalid_file`. Yields to the event loop between pieces.
 */
export async function inflateEntry(
  bytes: Uint8Array,
  entry: ZipEntry,
  slicer: Slicer,
): Promise<Uint8Array> {
  if (entry.flags & 1) throw invalidFile(`${entry.name} in the archive is encrypted.`);
  const data = storedBytes(bytes, entry);
  if (entry.method === 0) {
    if (data.length !== entry.size) throw corrupt();
    return data;
  }
  if (entry.method !== 8) throw invalidFile(`${entry.name} uses a compression this reader lacks.`);
  const out = new Uint8Array(entry.size);
  let size = 0;
  let ended = false;
  const inflate = new Inflate((chunk, final) => {
    if (size + chunk.length > out.length) throw new TooLarge();
    out.set(chunk, size);
    size += chunk.length;
    if (final) ended = true;
  });
  try {
    for (let i = 0; i < data.length && !ended; i += PIECE) {
      inflate.push(data.subarray(i, i + PIECE), i + PIECE >= data.length);
      await slicer.tick();
    }
  } catch (error) {
    if (error instanceof TooLarge) {
      throw invalidFile(
        `${entry.name} in the archive inflates past the size the archive declares.`,
      );
    }
    throw corrupt();
  }
  if (!ended || size !== entry.size) throw corrupt();
  return out;
}
