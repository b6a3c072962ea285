/**
 * Slots for delivery attempts in flight (docs/architecture.md#webhooks): at most `total` at
 * once, at most `perOwner` for one owner (API key or console account). A freed slot goes to the
 * waiting owner with the fewest attempts in flight (round robin among equals), so one
 * tenant's slow or silent receivers hold at most `perOwner` slots and never the others' turn.
 */
export class FairSlots {
  private inFlight = 0;
  private readonly byOwner = new Map<string, number>();
  // Insertion order is the round robin: an owner served goes to the back.
  private readonly waiting = new Map<string, (() => void)[]>();

  constructor(
    private readonly total: number,
    private readonly perOwner: number,
  ) {}

  /** Resolves with the slot's release once the owner may send; release exactly once. */
  acquire(owner: string): Promise<() => void> {
    return new Promise((resolve) => {
      const queue = this.waiting.get(owner) ?? [];
      queue.push(() => {
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.inFlight--;
          const n = (this.byOwner.get(owner) ?? 1) - 1;
          if (n === 0) this.byOwner.delete(owner);
          else this.byOwner.set(owner, n);
          this.grant();
        });
      });
      this.waiting.set(owner, queue);
      this.grant();
    });
  }

  /** Attempts in flight now, all owners together (for tests and metrics). */
  get busy(): number {
    return this.inFlight;
  }

  private grant(): void {
    while (this.inFlight < this.total) {
      // The waiting owner with the fewest attempts in flight; among equals, the one served least recently.
      let pick: string | undefined;
      for (const owner of this.waiting.keys()) {
        const n = this.byOwner.get(owner) ?? 0;
        if (n < this.perOwner && (pick === undefined || n < (this.byOwner.get(pick) ?? 0))) pick = owner;
      }
      if (pick === undefined) return;
      const queue = this.waiting.get(pick)!;
      const next = queue.shift()!;
      this.waiting.delete(pick);
      if (queue.length > 0) this.waiting.set(pick, queue);
      this.inFlight++;
      this.byOwner.set(pick, (this.byOwner.get(pick) ?? 0) + 1);
      next();
    }
  }
}
