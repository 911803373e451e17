/**
 * A diary note as the /diary page shows it (docs/diary.md): its first 200 characters, so a page
 * of 60 entries with 2,000-character notes (each rendered and carried in the island's props)
 * stays under 250 KB; the whole note is read (GET /api/diary/:id) when the entry is edited.
 */

/** The most characters (code points) of a note a diary page carries. */
const PREVIEW = 200;

/** `note` cut to its preview, and whether anything was cut. */
export function notePreview(note: string | null): { note: string | null; noteCut?: true } {
  if (note === null) return { note };
  const chars = [...note];
  if (chars.length <= PREVIEW) return { note };
  return { note: `${chars.slice(0, PREVIEW).join("").trimEnd()}…`, noteCut: true };
}
