import type { DeploymentStore, StageContext, StageName } from "./types.js";

/** What a stage's body returns: its value, and whether it found its work already done. */
export interface StageOutcome<T> {
  value: T;
  skipped?: boolean;
}

/**
 * Runs `body` as stage `name` of `ctx`: reported started, then done (or skipped) with its
 * value, or failed with the error's message before the error is rethrown.
 */
export async function runStage<T>(
  store: DeploymentStore,
  ctx: StageContext,
  name: StageName,
  body: () => Promise<StageOutcome<T>>,
): Promise<T> {
  await store.stageStarted(ctx, name);
  try {
    const { value, skipped } = await body();
    await store.stageFinished(ctx, name, skipped ? "skipped" : "done");
    return value;
  } catch (e) {
    await safely(() => store.stageFinished(ctx, name, "failed", (e as Error).message));
    throw e;
  }
}

/** Reports a failure to the store without hiding the original error if the store fails too. */
export async function safely(fn: () => Promise<void> | void): Promise<void> {
  try {
    await fn();
  } catch {
    // the original error matters more
  }
}
