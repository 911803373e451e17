/**
 * The worst history files of issue 24, built on demand (never committed): a Trakt JSON export
 * and a CSV of unmatched titles of about 20 MiB each, a ZIP bomb whose entry declares 60 MiB
 * and inflates to far more, a ZIP one row over the row limit, and a CSV with a 1 MiB title.
 * Shared by the tests, `deno task bench history_import` and `deno task chaos`.
 */
import { Deflate, zipSync } from "fflate";

const encoder = new TextEncoder();
const MIB = 1024 * 1024;

/** A Trakt watched-movies export of just under `bytes`, in Trakt's own entry shape. */
export function traktExport(bytes: number, firstId = 1): Uint8Array {
  const entries: string[] = [];
  let size = 2;
  for (let i = 0; size < bytes - 400; i++) {
    const id = firstId + i;
    const entry = JSON.stringify({
      plays: 1 + (i % 3),
      last_watched_at: "2023-05-06T20:00:00.000Z",
      last_updated_at: "2023-05-06T20:00:00.000Z",
      movie: {
        title: `Trakt Film ${id}`,
        year: 1950 + (i % 70),
        ids: {
          trakt: id,
          slug: `trakt-film-${id}`,
          imdb: `tt${String(id).padStart(7, "0")}`,
          tmdb: id,
        },
      },
    });
    entries.push(entry);
    size += entry.length + 1;
  }
  return encoder.encode(`[${entries.join(",")}]`);
}

/** A Letterboxd watched.csv of just under `bytes` whose titles match nothing (`tag` marks them). */
export function unmatchedCsv(bytes: number, tag = "Nowhere"): Uint8Array {
  const lines = ["Date,Name,Year,Letterboxd URI\n"];
  let size = lines[0].length;
  for (let i = 0; size < bytes - 200; i++) {
    const line = `2024-01-01,${tag} Film ${i},${1950 + (i % 70)},https://boxd.it/${i}\n`;
    lines.push(line);
    size += line.length;
  }
  return encoder.encode(lines.join(""));
}

/** Letterboxd's watched.csv with `rows` rows. */
export function watchedCsv(rows: number): Uint8Array {
  const lines = ["Date,Name,Year,Letterboxd URI\n"];
  for (let i = 0; i < rows; i++) lines.push(`2024-01-01,Film ${i},2000,https://boxd.it/${i}\n`);
  return encoder.encode(lines.join(""));
}

/** A watched.csv whose first film's title is 1 MiB long, then two ordinary rows. */
export function longTitleCsv(): Uint8Array {
  return encoder.encode(
    "Date,Name,Year,Letterboxd URI\n" +
      `2024-01-01,${"x".repeat(MIB)},2000,a\n2024-01-01,Heat,1995,b\n` +
      "2024-01-01,Alien,1979,c\n",
  );
}

/** `zip` with its only entry's declared unpacked size (local and central headers) set to `size`. */
export function declareSize(zip: Uint8Array, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  view.setUint32(22, size, true);
  for (let i = out.length - 22; i >= 0; i--) {
    if (view.getUint32(i, true) === 0x02014b50) {
      view.setUint32(i + 24, size, true);
      break;
    }
  }
  return out;
}

/**
 * A ZIP bomb: one watched.csv entry whose headers declare `declared` bytes but whose deflate
 * stream inflates to `real` bytes (a header line, then the letter a), built by streaming so the
 * real size is never held in memory.
 */
export function zipBomb(real = 1024 * MIB, declared = 60 * MIB): Uint8Array {
  const parts: Uint8Array[] = [];
  const deflate = new Deflate({ level: 9 }, (chunk) => parts.push(chunk));
  const header = encoder.encode("Date,Name,Year,Letterboxd URI\n");
  const filler = new Uint8Array(MIB).fill(0x61);
  deflate.push(header);
  let left = real - header.length;
  while (left > 0) {
    const piece = filler.subarray(0, Math.min(MIB, left));
    left -= piece.length;
    deflate.push(piece, left === 0);
  }
  const stream = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of parts) {
    stream.set(p, at);
    at += p.length;
  }
  // A small honest archive gives the headers; its entry's data is swapped for the stream.
  const template = zipSync({ "watched.csv": header }, { level: 9 });
  return declareSize(spliceEntry(template, stream), declared);
}

// The archive with its only entry's compressed data replaced by `data` (sizes and offsets fixed;
// the CRC stays the template's, which a reader that stops at the declared size never reaches).
function spliceEntry(zip: Uint8Array, data: Uint8Array): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const nameLength = view.getUint16(26, true);
  const extraLength = view.getUint16(28, true);
  const oldSize = view.getUint32(18, true);
  const dataStart = 30 + nameLength + extraLength;
  const tail = zip.subarray(dataStart + oldSize);
  const out = new Uint8Array(dataStart + data.length + tail.length);
  out.set(zip.subarray(0, dataStart));
  out.set(data, dataStart);
  out.set(tail, dataStart + data.length);
  const outView = new DataView(out.buffer);
  outView.setUint32(18, data.length, true);
  const central = dataStart + data.length;
  outView.setUint32(central + 20, data.length, true);
  // The end of central directory record: where the central directory now starts.
  outView.setUint32(out.length - 22 + 16, central, true);
  return out;
}

/**
 * A ZIP of a watched.csv with `rows` rows (at the row limit's edge, 2.2 MB packed). Level 1
 * packs 500,001 rows in a second where level 9 took three, to the same size within 0.2 %.
 */
export function manyRowsZip(rows: number): Uint8Array {
  return zipSync({ "watched.csv": watchedCsv(rows) }, { level: 1 });
}
