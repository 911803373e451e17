/**
 * The read worker's side (read_worker.ts is its entry): reads the file as the main thread would
 * (parse.ts), without slicing, as the worker has its own thread, and answers the rows a chunk at
 * a time so the main thread never deserializes the whole list in one piece.
 */
import { Problem } from "@/lib/core/problem.ts";
import { parseHistoryFile } from "./parse.ts";
import {
  problemAnswer,
  type ReadAnswer,
  type ReadRequest,
  ROWS_PER_MESSAGE,
} from "./read_messages.ts";
import { Slicer } from "./slices.ts";

/** Reads `request`'s file and posts its answers; never throws (a failure is its last answer). */
export async function answerRead(
  request: ReadRequest,
  post: (answer: ReadAnswer) => void,
): Promise<void> {
  try {
    // A slice that never ends: the ticks never wait.
    const slicer = new Slicer(Infinity);
    const file = await parseHistoryFile(request.bytes, { ...request.options, slicer });
    for (let at = 0; at < file.rows.length; at += ROWS_PER_MESSAGE) {
      post({ type: "rows", rows: file.rows.slice(at, at + ROWS_PER_MESSAGE) });
    }
    const { format, skipped, lists } = file;
    post(lists ? { type: "done", format, skipped, lists } : { type: "done", format, skipped });
  } catch (error) {
    if (error instanceof Problem) post(problemAnswer(error));
    else {
      const e = error instanceof Error ? error : new Error(String(error));
      post({ type: "failed", name: e.name, message: e.message, stack: e.stack });
    }
  }
}
