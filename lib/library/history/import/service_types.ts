/** The history import service's interface and tuning (built by service.ts). */
import type { BackgroundTurns } from "@/lib/core/async/background_turns.ts";
import type { MovieSource } from "@/lib/catalog/types.ts";
import type { ReadHistoryFile, ZipLimits } from "./parse.ts";
import type { UploadGate } from "./upload_gate.ts";
import type { HistoryImportRun } from "./runs.ts";
import type { UnmatchedPage } from "./unmatched.ts";

/** What the import routes call. */
export interface HistoryImportService {
  /**
   * Reads `file` (its bytes, or what reads them once the upload is admitted) and starts its run;
   * 400 for a file it cannot read, 409 while one runs, 503 `import_unavailable` while the process
   * is taking in as many uploads as it may (./upload_gate.ts).
   */
  start(
    userId: string,
    file: Uint8Array | (() => Promise<Uint8Array>),
  ): Promise<{ importId: string; status: "running" }>;
  /** The user's run `id`; 404 `not_found` for anyone else's or none. */
  get(userId: string, id: string): Promise<HistoryImportRun>;
  /** The user's runs, newest first. */
  list(userId: string): Promise<HistoryImportRun[]>;
  /** Cancels the user's running run `id` (what it applied stays); 404 for anyone else's. */
  cancel(userId: string, id: string): Promise<HistoryImportRun>;
  /** A page of run `id`'s unmatched films after `cursor`; 404 for anyone else's run. */
  unmatched(userId: string, id: string, cursor?: string): Promise<UnmatchedPage>;
  /** Run `id`'s whole unmatched report as a CSV stream; 404 for anyone else's run. */
  unmatchedCsv(userId: string, id: string): Promise<ReadableStream<Uint8Array>>;
  /** Resumes every running run no instance is carrying on; returns their ids. */
  resume(): Promise<string[]>;
  /** Resolves once every run this service carries on (and its detail prefetch) has ended. */
  idle(): Promise<void>;
}

/** Tuning of the service (tests and the benchmark change it). */
export interface HistoryImportOptions {
  catalog: MovieSource;
  /** Searches in flight (default 8: at 50 ms a call, 2 already fill 40/s). */
  concurrency?: number;
  batchSize?: number;
  lockTtlMs?: number;
  zip?: ZipLimits;
  /** Rows a file may hold (default 500,000). */
  maxRows?: number;
  /** The background scheduler every import's slices share (default: one of this service's). */
  turns?: BackgroundTurns;
  /**
   * What reads an uploaded file (lib/app/services.ts: in a worker, read_off_thread.ts, unless
   * configured off); default `parseHistoryFile` on this thread, in slices that take turns.
   */
  readFile?: ReadHistoryFile;
  /** Which uploads are read when (default: as many at once as read workers, 4 waiting). */
  uploads?: UploadGate;
  /**
   * V8's full collection, run after a read over which the heap in use grew by 32 MiB or more
   * (./read_collect.ts; default: the server's, where `--expose-gc` exposes it; null: none).
   */
  collect?: (() => void) | null;
  /** The heap in use, as the collection after a read measures it (tests). */
  heapUsed?: () => number;
  /**
   * Asks the details job for a run (lib/catalog/details): called when a run ends, so the films
   * it stored from search rows get their full details soon.
   */
  askDetails?: () => void;
}
