/**
 * A refused upgrade shows why: the deployed and new layouts side by side on stdout (the table, or
 * with --json the whole refusal and its rows), before the one error line on stderr.
 */
import { formatLayoutDiff, isDeployerError, type LayoutRow } from "@points/deployer";
import { scrub } from "./errors.js";
import { toJson } from "./output.js";

/** The refusal as JSON: what `validate --json` and `upgrade --json` print on stdout when refused. */
export function refusalJson(err: unknown): Record<string, unknown> | undefined {
  if (!isDeployerError(err)) return undefined;
  return { ok: false, error: { code: err.code, message: scrub(err.message) }, ...(err.details ?? {}) };
}

/** Prints the layout comparison of a refused upgrade (human) or the refusal (json); nothing for other failures. */
export function printRefusal(err: unknown, json: boolean | undefined): void {
  if (json) {
    const out = refusalJson(err);
    if (out) process.stdout.write(`${toJson(out)}\n`);
    return;
  }
  if (!isDeployerError(err, "UNSAFE_UPGRADE")) return;
  const d = err.details as { contract?: string; oldImplementation?: string; layout?: LayoutRow[] } | undefined;
  if (!d?.layout) return;
  const unsafe = d.layout.filter((r) => !r.safe).length;
  process.stdout.write(
    `storage layout of ${d.contract} (deployed ${d.oldImplementation} | new):\n` +
      `refused: ${unsafe === 0 ? "the layout itself is compatible (see the error)" : `${unsafe} unsafe row${unsafe === 1 ? "" : "s"}`}\n` +
      `${formatLayoutDiff(d.layout)}\n`,
  );
}

/** Runs `work`; a refusal is printed (as above) before it propagates to the error line. */
export async function showingRefusal<T>(json: boolean | undefined, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (e) {
    printRefusal(e, json);
    throw e;
  }
}
