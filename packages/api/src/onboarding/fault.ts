import type { ProgramRecord, StageContext, StageName, StageStatus } from "@points/deployer";
import type { Db } from "../db/db.js";
import { DbManifestStore } from "./store.js";

/**
 * Tests only (ONBOARDING_FAULT with NODE_ENV=test): fails a task's first attempt at one point.
 * `<stage>:before`: the stage has started and nothing of it ran; `<stage>:after`: the stage's
 * work is done (its transactions mined), the failure comes as it is being recorded done. Either
 * way the stage ends `failed` with the error, as a crash there would leave it for a retry.
 */
export class FaultyStore extends DbManifestStore {
  private readonly faultStage: string;
  private readonly faultWhen: string;

  constructor(db: Db, onProgram: ((record: ProgramRecord) => Promise<void>) | undefined, fault: string) {
    super(db, onProgram);
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
