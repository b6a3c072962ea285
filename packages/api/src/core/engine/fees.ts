import type { JsonRpcProvider } from "ethers";

export interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface FeeCaps {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/** The smallest raise nodes accept for a replacement (geth's and Hardhat's price bump: 10%). */
const BUMP_PERCENT = 110n;
const ceilPercent = (v: bigint, pct: bigint) => (v * pct + 99n) / 100n;
const min = (a: bigint, b: bigint) => (a < b ? a : b);
const max = (a: bigint, b: bigint) => (a > b ? a : b);

/**
 * EIP-1559 fees under the chain's caps (docs/architecture.md#transaction-engine): twice the
 * latest base fee plus the node's suggested tip, so a transaction survives a few full blocks of
 * rising base fee; a replacement offers at least 10% more on both fields, or the market's
 * price when that is higher, never above the caps.
 */
export class FeePolicy {
  private cached?: { at: number; fees: Fees };

  constructor(
    private readonly provider: JsonRpcProvider,
    readonly caps: FeeCaps,
    private readonly cacheMs: number,
  ) {}

  /** What a new transaction offers now (read at most once per `cacheMs`). */
  async market(): Promise<Fees> {
    if (this.cached && Date.now() - this.cached.at < this.cacheMs) return this.cached.fees;
    const [block, tip] = await Promise.all([
      this.provider.send("eth_getBlockByNumber", ["latest", false]) as Promise<{ baseFeePerGas?: string }>,
      (this.provider.send("eth_maxPriorityFeePerGas", []) as Promise<string>).catch(() => "0x3b9aca00"),
    ]);
    const base = BigInt(block.baseFeePerGas ?? 0);
    const priority = min(BigInt(tip), this.caps.maxPriorityFeePerGas);
    const fees = { maxPriorityFeePerGas: priority, maxFeePerGas: min(2n * base + priority, this.caps.maxFeePerGas) };
    this.cached = { at: Date.now(), fees };
    return fees;
  }

  /** The fees of a replacement of `prev`; null when the caps leave no room for the 10% bump. */
  async bump(prev: Fees): Promise<Fees | null> {
    const now = await this.market();
    const next = {
      maxPriorityFeePerGas: max(ceilPercent(prev.maxPriorityFeePerGas, BUMP_PERCENT), now.maxPriorityFeePerGas),
      maxFeePerGas: max(ceilPercent(prev.maxFeePerGas, BUMP_PERCENT), now.maxFeePerGas),
    };
    return FeePolicy.replaceable(prev, next, this.caps);
  }

  /** `next` clamped to the caps, if it still raises both fields by 10% over `prev`. */
  static replaceable(prev: Fees, next: Fees, caps: FeeCaps): Fees | null {
    const out = {
      maxPriorityFeePerGas: min(next.maxPriorityFeePerGas, caps.maxPriorityFeePerGas),
      maxFeePerGas: min(next.maxFeePerGas, caps.maxFeePerGas),
    };
    if (out.maxPriorityFeePerGas > out.maxFeePerGas) out.maxPriorityFeePerGas = out.maxFeePerGas;
    const enough =
      out.maxPriorityFeePerGas >= ceilPercent(prev.maxPriorityFeePerGas, BUMP_PERCENT) &&
      out.maxFeePerGas >= ceilPercent(prev.maxFeePerGas, BUMP_PERCENT);
    return enough ? out : null;
  }
}
