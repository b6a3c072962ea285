import type { StageContext, StageName, StageStatus } from "@points/deployer";
import type { Db } from "../../src/core/db/db.js";
import { DbManifestStore } from "../../src/core/onboarding/store.js";
import type { StoreFactory } from "../../src/workers/onboarding/runner.js";

/** Where a task's first attempt fails: `<stage>:before` or `<stage>:after`. */
export type Fault = `${"validate" | "release" | "deploy" | "verify" | "register"}:${"before" | "after"}`;

/**
 * Fails a task's attempt at one point. `<stage>:before`: the stage has started and nothing of
 * it ran; `<stage>:after`: the stage's work is done (its transactions mined), the failure comes
 * as it is being recorded done. Either way the stage ends `failed` with the error, as a crash
 * there would leave it for a retry.
 */
export class FaultyStore extends DbManifestStore {
  private readonly faultStage: string;
  private readonly faultWhen: string;

  constructor(db: Db, fault: Fault) {
    super(db);
    [this.faultStage, this.faultWhen] = fault.split(":");
  }

  private error() {
    return new Error(`injected fault ${this.faultStage}:${this.faultWhen}`);
  }

  async stageStarted(ctx: StageContext, stage: StageName): Promise<void> {
    await super.stageStarted(ctx, stage);
    if (stage === this.faultStage && this.faultWhen === "before") {
      const e = this.error();
      await super.stageFinished(ctx, stage, "failed", e.message);
      throw e;
    }
  }

  async stageFinished(ctx: StageContext, stage: StageName, status: StageStatus, error?: string): Promise<void> {
    await super.stageFinished(ctx, stage, status, error);
    if (stage === this.faultStage && this.faultWhen === "after" && status !== "failed") throw this.error();
  }
}

/** Every task's first attempt fails at `fault`; later attempts run normally. */
export const failFirstAttempt =
  (fault: Fault): StoreFactory =>
  (db, task) =>
    task.attempts === 1 ? new FaultyStore(db, fault) : new DbManifestStore(db);
