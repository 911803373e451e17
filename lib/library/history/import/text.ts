/**
 * UTF-8 text of an uploaded file, decoded a piece at a time: one `TextDecoder.decode` of
 * 20 MiB held the event loop for a fifth of a second on a busy machine (docs/history.md).
 */
import type { Slicer } from "./slices.ts";

// Bytes decoded between two chances to yield: about a millisecond of work.
const PIECE = 256 * 1024;

/** The text of `bytes`, or null when they are not UTF-8; yields between pieces. */
export async function decodeUtf8(bytes: Uint8Array, slicer: Slicer): Promise<string | null> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const parts: string[] = [];
  try {
    for (let i = 0; i < bytes.length; i += PIECE) {
      const end = i + PIECE >= bytes.length;
      parts.push(decoder.decode(bytes.subarray(i, i + PIECE), { stream: !end }));
      const turn = slicer.tick();
      if (turn) await turn;
    }
    if (bytes.length === 0) parts.push(decoder.decode());
  } catch {
    return null;
  }
  return parts.join("");
}
