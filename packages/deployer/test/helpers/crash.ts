import type {
  DeploymentStore,
  MemoryStore,
  ProgramRecord,
  Release,
  StageContext,
  StageName,
  StageStatus,
  TxInfo,
} from "../../src/index.js";

export class InjectedCrash extends Error {}

/**
 * Wraps a store and "kills the process" at its `crashAt`-th call: in mode "before" the call
 * throws before the inner store records anything, in mode "after" once it has. After the crash
 * every call throws, as nothing runs in a dead process.
 */
export class CrashingStore implements DeploymentStore {
  readonly calls: string[] = [];
  private count = 0;
  private dead = false;

  constructor(
    readonly inner: MemoryStore,
    readonly crashAt = -1,
    readonly mode: "before" | "after" = "before",
  ) {}

  private async hit<T>(label: string, fn: () => Promise<T> | T): Promise<T> {
    if (this.dead) throw new InjectedCrash(`store used after the crash (${label})`);
    const i = this.count++;
    this.calls.push(label);
    if (i === this.crashAt && this.mode === "before") {
      this.dead = true;
      throw new InjectedCrash(`crash before ${label}`);
    }
    const value = await fn();
    if (i === this.crashAt) {
      this.dead = true;
      throw new InjectedCrash(`crash after ${label}`);
    }
    return value;
  }

  getRelease(chainId: bigint, version?: string): Promise<Release | undefined> {
    return this.hit("getRelease", () => this.inner.getRelease(chainId, version));
  }
  getReleases(chainId: bigint): Promise<Release[]> {
    return this.hit("getReleases", () => this.inner.getReleases(chainId));
  }
  saveRelease(release: Release): Promise<void> {
    return this.hit("saveRelease", () => this.inner.saveRelease(release));
  }
  getProgram(chainId: bigint, brand: string): Promise<ProgramRecord | undefined> {
    return this.hit("getProgram", () => this.inner.getProgram(chainId, brand));
  }
  saveProgram(record: ProgramRecord): Promise<void> {
    return this.hit("saveProgram", () => this.inner.saveProgram(record));
  }
  stageStarted(ctx: StageContext, stage: StageName): Promise<void> {
    return this.hit(`stageStarted:${stage}`, () => this.inner.stageStarted(ctx, stage));
  }
  stageTransaction(ctx: StageContext, stage: StageName, tx: TxInfo): Promise<void> {
    return this.hit(`stageTransaction:${stage}:${tx.description}`, () => this.inner.stageTransaction(ctx, stage, tx));
  }
  stageAddresses(...args: Parameters<DeploymentStore["stageAddresses"]>): Promise<void> {
    return this.hit(`stageAddresses:${args[1]}`, () => this.inner.stageAddresses(...args));
  }
  stageFinished(ctx: StageContext, stage: StageName, status: StageStatus, error?: string): Promise<void> {
    return this.hit(`stageFinished:${stage}:${status}`, () => this.inner.stageFinished(ctx, stage, status, error));
  }
  getStages(ctx: StageContext) {
    return this.hit("getStages", () => this.inner.getStages(ctx));
  }
}
