import path from "node:path";
import lockfile from "proper-lockfile";

/**
 * How long a lock outlives a process that died without releasing it (a crash, kill -9). Long enough that a live
 * process whose event loop PGlite's start blocks for many seconds on a loaded machine keeps its lock (15 s did not).
 */
const STALE_MS = 60_000;

/**
 * Thrown when the embedded database's folder is held by another process: PGlite is single-process,
 * and two processes on one folder each see only their own writes (docs/deployment.md#embedded-database).
 */
export class DataDirInUseError extends Error {
  constructor(readonly dataDir: string) {
    super(
      `the embedded database in ${dataDir} is in use by another process (a running \`pnpm start\` or \`points-api serve\`?): ` +
        `stop it first, or use its admin routes; if nothing runs, retry in ${STALE_MS / 1000} s (the lock of a process that died expires)`,
    );
    this.name = "DataDirInUseError";
  }
}

/**
 * Takes the folder's lock for this process, or throws DataDirInUseError. The lock is a directory inside the
 * folder whose time this process refreshes; another process takes it over only once it is stale.
 * Returns the release function.
 */
export async function lockDataDir(dataDir: string, onLost: (e: Error) => void): Promise<() => Promise<void>> {
  try {
    return await lockfile.lock(dataDir, {
      lockfilePath: path.join(dataDir, "points-api.lock"),
      stale: STALE_MS,
      realpath: false,
      // A lock lost to a long pause (the event loop blocked past STALE_MS) is reported, not thrown: throwing
      // here would end the process from a timer.
      onCompromised: onLost,
    });
  } catch (e) {
    if ((e as { code?: string }).code === "ELOCKED") throw new DataDirInUseError(dataDir);
    throw e;
  }
}
