/**
 * What a process does for the background jobs when it starts (docs/faults.md, "Background
 * jobs"), in one place: each job's recovery (marking the runs a restart cut off failed, or
 * resuming them) runs now and once more after the lease of the process this one replaces can
 * have run out. lib/app/services.ts lists the hooks; main.ts runs them.
 */
import type { AppDeps } from "../deps.ts";
import { describeError } from "@/lib/core/log.ts";

/** One job's recovery after a restart. */
export interface RestartHook {
  /** How logs name the job. */
  name: string;
  /** The lifetime of the job's lease: a second pass runs once a lapsed holder's lease is gone. */
  leaseTtlMs: number;
  /** Marks cut-off runs failed or resumes them. */
  recover(): Promise<unknown>;
}

/**
 * Runs every hook now (resolving when all have run; a failure is logged, never thrown) and
 * again `leaseTtlMs` + 1 s of clock time later.
 */
export async function recoverAfterRestart(
  deps: Pick<AppDeps, "clock" | "log">,
  hooks: RestartHook[],
): Promise<void> {
  const once = (hook: RestartHook) =>
    hook.recover().catch((error) =>
      deps.log({
        level: "error",
        msg: "recovery after a restart failed",
        job: hook.name,
        error: describeError(error),
      })
    );
  for (const hook of hooks) await once(hook);
  for (const hook of hooks) deps.clock.sleep(hook.leaseTtlMs + 1_000).then(() => once(hook));
}
