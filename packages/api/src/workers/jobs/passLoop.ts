/**
 * Every background job's loop (onboarding worker, ledger indexer, webhook dispatcher, redemption
 * desk, source verification): run a pass, then wait `waitMs(result)` (0: the next pass at once)
 * or until poked. A poke during a pass is kept: the next pass runs as soon as this one ends, so
 * work queued mid-pass never waits a whole poll. A pass that throws is reported and the loop goes
 * on after the wait (its result is then undefined): a database that did not answer never crashes
 * the service. stop() ends the wait and resolves once the pass in flight has finished; a stopped
 * loop does not start again. docs/architecture.md#the-api-in-three-layers
 */
export class PassLoop<T> {
  private halted = false;
  private poked = false;
  private loop?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private wake?: () => void;

  constructor(
    private readonly pass: () => Promise<T>,
    private readonly waitMs: (result: T | undefined) => number,
    private readonly onError: (e: unknown) => void,
  ) {}

  get stopped(): boolean {
    return this.halted;
  }

  start(): void {
    if (this.halted) return;
    this.loop ??= this.main();
  }

  /** The next pass runs now, or right after the one in flight (work was just queued). */
  poke(): void {
    this.poked = true;
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.halted = true;
    clearTimeout(this.timer);
    this.wake?.();
    await this.loop;
  }

  private async main(): Promise<void> {
    while (!this.halted) {
      this.poked = false;
      let result: T | undefined;
      try {
        result = await this.pass();
      } catch (e) {
        this.onError(e);
      }
      const ms = this.waitMs(result);
      if (this.halted || ms <= 0 || this.poked) continue;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.timer = setTimeout(resolve, ms);
      });
      this.wake = undefined;
      clearTimeout(this.timer);
    }
  }
}
