/** POST /api/import at the 20 MiB limit: exactly 20 MiB is read, one byte more is 413, raw or multipart. */
import assert from "node:assert/strict";
import { historyWorld } from "./helpers/history_import_world.ts";
import { problem } from "./helpers/problems.ts";

Deno.test("POST /api/import refuses a file over 20 MiB with 413 file_too_large, raw or multipart; 20 MiB exactly is read", async () => {
  await using w = await historyWorld();
  const limit = 20 * 1024 * 1024;
  await problem(await w.upload(new Uint8Array(limit + 1).fill(0x61)), 413, "file_too_large");
  await problem(
    await w.upload(new Uint8Array(limit + 1).fill(0x61), { multipart: true }),
    413,
    "file_too_large",
  );
  // At the limit the file is read: it is just not a format the import knows.
  await problem(await w.upload(new Uint8Array(limit).fill(0x61)), 400, "unknown_format");
  await problem(
    await w.upload(new Uint8Array(limit).fill(0x61), { multipart: true }),
    400,
    "unknown_format",
  );
});

/** An IMDb ratings export of exactly `size` bytes: one movie among TV episodes (skipped). */
function imdbExportOfSize(size: number): Uint8Array {
  const header = "Const,Your Rating,Date Rated,Title,URL,Title Type,Year\r\n";
  const movie =
    "tt0137523,9,2023-05-01,Fight Club,https://www.imdb.com/title/tt0137523/,Movie,1999\r\n";
  const episode = (i: number) =>
    `tt${String(i).padStart(8, "0")},7,2023-05-02,Episode ${i},` +
    `https://www.imdb.com/title/tt${String(i).padStart(8, "0")}/,TV Episode,2010\r\n`;
  const parts = [header, movie];
  let length = header.length + movie.length;
  for (let i = 1; length + episode(i).length + 120 < size; i++) {
    parts.push(episode(i));
    length += episode(i).length;
  }
  // The last episode's title pads the file to the byte.
  const last = `tt99999999,7,2023-05-02,Episode ,,TV Episode,2010\r\n`;
  parts.push(last.replace("Episode ", "Episode " + "x".repeat(size - length - last.length)));
  const bytes = new TextEncoder().encode(parts.join(""));
  assert.equal(bytes.length, size);
  return bytes;
}

Deno.test("an IMDb export of exactly 20 MiB imports; the same export one byte larger is 413", async () => {
  await using w = await historyWorld();
  const limit = 20 * 1024 * 1024;
  const file = imdbExportOfSize(limit);
  const run = await w.importFile(file);
  assert.equal(run.status, "succeeded");
  assert.equal(run.format, "imdb");
  assert.equal(run.counts.matched, 1);
  assert.equal(run.counts.skipped, run.counts.rows - 1);
  assert.ok(run.counts.rows > 150_000, String(run.counts.rows));
  const bigger = imdbExportOfSize(limit + 1);
  await problem(await w.upload(bigger), 413, "file_too_large");
  await problem(await w.upload(bigger, { multipart: true }), 413, "file_too_large");
});
