/**
 * A background job's loop: run a pass, then wait `waitMs(result)` (0: the next pass at once)
 * or until poked. A pass that throws is reported and the loop goes on after the wait (its result
 * is then undefined): a database that did not answer never crashes the service. stop() ends the
 * wait and resolves once the pass in flight has finished.
 */
export class PassLoop<T> {
  private halted = false;
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
    this.loop ??= this.main();
  }

  /** Ends the wait: the next pass runs now (work was just queued). */
  poke(): void {
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
      let result: T | undefined;
      try {
        result = await this.pass();
      } catch (e) {
        this.onError(e);
      }
      const ms = this.waitMs(result);
      if (this.halted || ms <= 0) continue;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.timer = setTimeout(resolve, ms);
      });
    }
  }
}
