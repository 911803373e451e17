/**
 * The file of `POST /api/import`: a `multipart/form-data` field `file` (read with the
 * scan of multipart_file.ts) or the raw body; at most 20 MiB (413 `file_too_large`),
 * refused as soon as the body passes that, before it is all read.
 */
import { readCappedBody } from "./read_body.ts";
import { boundaryOf, multipartField } from "./multipart_file.ts";
import { Slicer } from "../library/history/import/slices.ts";
import { Problem } from "../core/problem.ts";

/** The largest file an import takes. */
const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
// Room for a multipart body's boundaries and part headers around a file of the largest size.
const MULTIPART_OVERHEAD = 64 * 1024;

function tooLarge(): Problem {
  return new Problem(413, "file_too_large", "The file is larger than 20 MiB.");
}

function noFile(detail: string): Problem {
  return new Problem(400, "invalid_body", detail);
}

/** The uploaded file's bytes. */
export async function readUpload(request: Request): Promise<Uint8Array> {
  const type = request.headers.get("content-type") ?? "";
  const multipart = /^multipart\/form-data/i.test(type);
  const maxBytes = MAX_UPLOAD_BYTES + (multipart ? MULTIPART_OVERHEAD : 0);
  const body = await readCappedBody(request, { maxBytes });
  if (!body) throw tooLarge();
  if (!multipart) {
    if (body.length === 0) throw noFile("No file was sent.");
    return body;
  }
  // Found by a scan that yields (multipart_file.ts): formData() parsed 20 MiB in one piece.
  const boundary = boundaryOf(type);
  const file = boundary === null
    ? null
    : await multipartField(body, boundary, "file", new Slicer());
  if (file === null) throw noFile("The multipart body could not be read.");
  if (file === "absent") throw noFile('The multipart body has no "file" field.');
  const bytes = file;
  if (bytes.length > MAX_UPLOAD_BYTES) throw tooLarge();
  if (bytes.length === 0) throw noFile("The file is empty.");
  return bytes;
}
