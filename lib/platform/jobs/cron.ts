/** One cron tick of a job (main.ts registers them with `Deno.cron`). */
import type { AppDeps } from "../deps.ts";
import { describeError } from "@/lib/core/log.ts";
import { Problem } from "@/lib/core/problem.ts";
import type { JobOutcome, JobRecords } from "./job.ts";

/**
 * Starts a `cron` run with `start` and waits for its outcome; a run already going (the job's
 * busy problem) is logged and skipped, any other failure logged. Null when nothing ran.
 */
export async function cronTick<O extends JobOutcome>(
  deps: Pick<AppDeps, "log">,
  job: Pick<JobRecords<unknown>, "name" | "busy">,
  start: () => Promise<{ done: Promise<O> }>,
): Promise<O | null> {
  try {
    const { done } = await start();
    return await done;
  } catch (error) {
    if (error instanceof Problem && error.code === job.busy().code) {
      deps.log({ level: "info", msg: `${job.name} cron skipped: a run is in progress` });
      return null;
    }
    deps.log({ level: "error", msg: `${job.name} cron failed`, error: describeError(error) });
    return null;
  }
}
