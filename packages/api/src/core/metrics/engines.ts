import { Gauge } from "prom-client";
import { formatEther } from "ethers";
import { processRegistry, engineFinalized, engineReplaced } from "./hooks.js";

/** What an engine tells a scrape (src/core/engine/engine.ts `stats`). */
export interface EngineStats {
  /** Nonces handed out and not final yet (mined but shallow included). */
  pending: number;
  /** Nonces handed out that the chain has not mined yet: the engine's next nonce minus the chain's latest. */
  nonceGap: number;
  /** The block the oldest unmined transaction was sent in (null: none unmined). */
  oldestSentAtBlock: number | null;
  /** The newest block the engine has looked at. */
  head: number;
  paused: boolean;
}

/** An engine's stats from its in-flight nonces (`mined`: a receipt seen, not final yet). */
export function engineStats(
  inflight: Iterable<{ mined: unknown; sentAtBlock: number }>,
  next: number,
  latest: number,
  head: number,
  paused: unknown,
): EngineStats {
  let pending = 0;
  let oldest: number | null = null;
  for (const e of inflight) {
    pending++;
    if (e.mined === null && (oldest === null || e.sentAtBlock < oldest)) oldest = e.sentAtBlock;
  }
  return { pending, nonceGap: Math.max(0, next - latest), oldestSentAtBlock: oldest, head, paused: paused !== null };
}

/** The parts of a transaction engine metrics read; structural, so core/metrics imports no engine. */
export interface WatchedEngine {
  readonly from: string;
  stats(): EngineStats;
  on(event: "replaced" | "final", listener: () => void): unknown;
}

interface Watched {
  chain: string;
  engine: WatchedEngine;
  balance: () => Promise<bigint>;
}

/** By chain and key: an engine made again for the same key (a restarted worker) replaces the old one. */
const watched = new Map<string, Watched>();

/**
 * Called where an engine is made: its replacements and finals are counted, and its nonces and
 * balance are read at each scrape. `balance` asks the chain (at most once per scrape per key).
 */
export function watchEngine(chain: number | string, engine: WatchedEngine, balance: () => Promise<bigint>): void {
  const c = String(chain);
  watched.set(`${c}/${engine.from}`, { chain: c, engine, balance });
  engine.on("replaced", () => engineReplaced(c, engine.from));
  engine.on("final", () => engineFinalized(c, engine.from));
}

const gauge = (name: string, help: string, read: (w: Watched, s: EngineStats) => number | null) =>
  new Gauge({
    name,
    help,
    labelNames: ["chain", "key"] as const,
    registers: [processRegistry],
    collect() {
      this.reset();
      for (const w of watched.values()) {
        const v = read(w, w.engine.stats());
        if (v !== null) this.set({ chain: w.chain, key: w.engine.from }, v);
      }
    },
  });

gauge("points_engine_pending_transactions", "Transactions the engine sent and has not seen final", (_, s) => s.pending);
gauge("points_engine_nonce_gap", "Nonces the engine handed out that the chain has not mined yet", (_, s) => s.nonceGap);
gauge(
  "points_engine_stuck_blocks",
  "Blocks since the oldest unmined transaction was sent (0: none waiting); replaced after replaceAfterBlocks",
  (_, s) => (s.oldestSentAtBlock === null ? 0 : Math.max(0, s.head - s.oldestSentAtBlock)),
);
gauge("points_engine_paused", "1 while the engine waits (executor balance below its minimum), else 0", (_, s) =>
  s.paused ? 1 : 0,
);

new Gauge({
  name: "points_engine_executor_balance_ether",
  help: "The executor key's balance in the chain's native token, read from the chain at scrape time",
  labelNames: ["chain", "key"] as const,
  registers: [processRegistry],
  async collect() {
    this.reset();
    await Promise.all(
      [...watched.values()].map(async (w) => {
        // An unanswered read leaves the series out: absent() alerts, a wrong zero would page.
        const wei = await w.balance().catch(() => undefined);
        if (wei !== undefined) this.set({ chain: w.chain, key: w.engine.from }, Number(formatEther(wei)));
      }),
    );
  },
});

/** Called where engines stop: a stopped engine is no longer reported. */
export function unwatchEngine(chain: number | string, from: string): void {
  watched.delete(`${chain}/${from}`);
}
