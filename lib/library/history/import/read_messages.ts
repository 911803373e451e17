/**
 * What the main thread and a history file's read worker say to each other (docs/history.md,
 * "Reading in a worker"): the file goes in (its bytes transferred, not copied), the rows come
 * back a chunk at a time, then the file's other fields; or the Problem it is, or the failure.
 * Structured clone keeps neither a Problem's class nor its fields, so a Problem travels as a
 * plain description and is rebuilt on arrival.
 */
import { Problem } from "@/lib/core/problem.ts";
import type { ParsedFile } from "./rows.ts";
import type { ZipLimits } from "./zip.ts";

/** Rows per message: one message is deserialized in one piece on the main thread. */
export const ROWS_PER_MESSAGE = 5_000;

/** The one message a read worker gets: the file and the limits of its read. */
export interface ReadRequest {
  bytes: Uint8Array;
  options: { zip?: ZipLimits; maxRows?: number };
}

/** A 4xx the file is (or any Problem the read threw), as structured clone can carry it. */
interface ProblemAnswer {
  type: "problem";
  status: number;
  code: string;
  detail: string;
  headers: Record<string, string>;
  extensions: Record<string, unknown>;
}

/** What a read worker answers: chunks of rows, then one of done, problem or failed. */
export type ReadAnswer =
  | { type: "rows"; rows: ParsedFile["rows"] }
  | { type: "done"; format: ParsedFile["format"]; skipped: number; lists?: ParsedFile["lists"] }
  | ProblemAnswer
  | { type: "failed"; name: string; message: string; stack?: string };

/** `problem` as a message. */
export function problemAnswer(problem: Problem): ProblemAnswer {
  return {
    type: "problem",
    status: problem.status,
    code: problem.code,
    detail: problem.message,
    headers: { ...problem.headers },
    extensions: { ...problem.extensions },
  };
}

/** The Problem a message describes: the same status, code, detail, headers and extensions. */
export function problemFrom(answer: ProblemAnswer): Problem {
  return new Problem(answer.status, answer.code, answer.detail, {
    headers: answer.headers,
    extensions: answer.extensions,
  });
}
