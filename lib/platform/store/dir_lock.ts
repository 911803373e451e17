/**
 * One process per embedded data directory. PGlite neither locks its directory nor checks the
 * `postmaster.pid` it writes (pid -42), so two servers on one DATA_DIR would both write it and
 * corrupt it. An exclusive advisory lock (flock) on a file beside the directory is taken before
 * PGlite opens it; the OS drops the lock when the process ends, even by kill -9, so a dead
 * holder never leaves a stale lock.
 */

/** Another live process holds the data directory. */
export class DataDirInUse extends Error {
  constructor(readonly dir: string, readonly holderPid: number | undefined) {
    super(
      `DATA_DIR in use: ${dir} is held by another server process` +
        `${holderPid ? ` (pid ${holderPid})` : ""}; stop it or choose another DATA_DIR`,
    );
    this.name = "DataDirInUse";
  }
}

/** A held lock; `release` unlocks and closes it. */
export interface DirLock {
  readonly path: string;
  release(): void;
}

/** Takes the lock on `dir` without waiting, or throws DataDirInUse naming the holder's pid. */
export async function lockDataDir(dir: string): Promise<DirLock> {
  const path = `${dir.replace(/\/+$/, "")}.lock`;
  // Not truncated on open: until this process holds the lock, the file names the holder.
  const file = await Deno.open(path, { read: true, write: true, create: true });
  let held = false;
  try {
    held = await file.tryLock(true);
    if (!held) {
      const text = new TextDecoder().decode(await Deno.readFile(path)).trim();
      const pid = Number.parseInt(text, 10);
      throw new DataDirInUse(dir, Number.isFinite(pid) && pid > 0 ? pid : undefined);
    }
    await file.truncate(0);
    await file.write(new TextEncoder().encode(`${Deno.pid}\n`));
  } catch (error) {
    file.close();
    throw error;
  }
  let open = true;
  return {
    path,
    release() {
      if (!open) return;
      open = false;
      // Closing the descriptor drops the flock; the file stays (removing it would race a waiter).
      file.close();
    },
  };
}
