/**
 * UTF-8 text of an uploaded file, decoded a piece at a time: one `TextDecoder.decode` of
 * 20 MiB held the event loop for a fifth of a second on a busy machine (docs/history.md).
 */
import type { Slicer } from "./slices.ts";

// Bytes decoded between two chances to yield: about a millisecond of work.
const PIECE = 256 * 1024;

// Bytes checked between two chances to yield when the text itself is not kept: pieces whose text
// stays under V8's large-object size, so each dies young instead of in the old generation.
const CHECK_PIECE = 32 * 1024;

/**
 * The start of `bytes`' text: decoded until it holds more than white space (or the end), or null
 * when those bytes are not UTF-8. What a file is, is told from this without decoding it whole.
 */
export function utf8Head(bytes: Uint8Array): string | null {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let head = "";
  try {
    for (let i = 0; i < bytes.length; i += CHECK_PIECE) {
      const end = i + CHECK_PIECE >= bytes.length;
      head += decoder.decode(bytes.subarray(i, i + CHECK_PIECE), { stream: !end });
      if (head.trimStart().length > 0) return head;
    }
    return head + decoder.decode();
  } catch {
    return null;
  }
}

/** Whether `bytes` are UTF-8, checked a piece at a time without keeping the text; yields. */
export async function isUtf8(bytes: Uint8Array, slicer: Slicer): Promise<boolean> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  try {
    for (let i = 0; i < bytes.length; i += CHECK_PIECE) {
      decoder.decode(bytes.subarray(i, i + CHECK_PIECE), {
        stream: i + CHECK_PIECE < bytes.length,
      });
      const turn = slicer.tick();
      if (turn) await turn;
    }
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

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
