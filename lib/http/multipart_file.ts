/**
 * One field of a `multipart/form-data` body, found by scanning its bytes a slice at a time:
 * `Request.formData()` parsed a 20 MiB upload in one piece, holding the event loop for most of
 * a second on a busy machine (docs/history.md). Only what the upload needs: the parts'
 * boundaries, each part's `Content-Disposition` name, and the bytes of the part named.
 */
import type { Slicer } from "../library/history/import/slices.ts";

const encoder = new TextEncoder();
// A part's headers are a few lines; more than this is not a form a browser sends.
const MAX_PART_HEADERS = 16 * 1024;
// Bytes scanned between two chances to yield.
const SCAN_PIECE = 1024 * 1024;

/** The multipart body's boundary from its content type, or null. */
export function boundaryOf(contentType: string): string | null {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^;\s]{1,70}))/i.exec(contentType);
  return match ? match[1] ?? match[2] : null;
}

// The first index of `needle` in `bytes` at or after `from`, or -1; yields while it scans.
async function indexOf(
  bytes: Uint8Array,
  needle: Uint8Array,
  from: number,
  slicer: Slicer,
): Promise<number> {
  let scannedTo = from;
  for (let at = bytes.indexOf(needle[0], from); at >= 0; at = bytes.indexOf(needle[0], at + 1)) {
    let k = 1;
    while (k < needle.length && bytes[at + k] === needle[k]) k++;
    if (k === needle.length) return at;
    if (at - scannedTo > SCAN_PIECE) {
      scannedTo = at;
      const turn = slicer.tick();
      if (turn) await turn;
    }
  }
  return -1;
}

const CRLF = encoder.encode("\r\n");
const HEADERS_END = encoder.encode("\r\n\r\n");

/**
 * The bytes of the part named `name` (a view of `body`, not a copy); `"absent"` when no part
 * has that name; null when the body is not a well-formed multipart body.
 */
export async function multipartField(
  body: Uint8Array,
  boundary: string,
  name: string,
  slicer: Slicer,
): Promise<Uint8Array | "absent" | null> {
  const dash = encoder.encode(`--${boundary}`);
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  // The first boundary opens the body, or ends a preamble on a line of its own.
  let at = body.subarray(0, dash.length).every((b, i) => b === dash[i])
    ? 0
    : await indexOf(body, delimiter, 0, slicer) + CRLF.length;
  if (at < CRLF.length && at !== 0) return null;
  for (;;) {
    at += dash.length;
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return "absent"; // the closing boundary
    if (body[at] !== CRLF[0] || body[at + 1] !== CRLF[1]) return null;
    const headersStart = at + CRLF.length;
    const headersEnd = await indexOf(
      body.subarray(0, headersStart + MAX_PART_HEADERS),
      HEADERS_END,
      headersStart - CRLF.length,
      slicer,
    );
    if (headersEnd < 0) return null;
    const headers = new TextDecoder().decode(body.subarray(headersStart, headersEnd));
    const contentStart = headersEnd + HEADERS_END.length;
    const contentEnd = await indexOf(body, delimiter, contentStart, slicer);
    if (contentEnd < 0) return null;
    if (partName(headers) === name) return body.subarray(contentStart, contentEnd);
    at = contentEnd + CRLF.length;
  }
}

// The `name` of a part's Content-Disposition: form-data header.
function partName(headers: string): string | null {
  for (const line of headers.split("\r\n")) {
    if (!/^content-disposition\s*:\s*form-data\s*(;|$)/i.test(line)) continue;
    const match = /;\s*name\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;\s]+))/i.exec(line);
    return match ? (match[1] ?? match[2]).replace(/\\(.)/g, "$1") : null;
  }
  return null;
}
