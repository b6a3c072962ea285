import type { CallOptions } from "../types.js";
import type { ledgerNamespace } from "./ledger.js";

/** One issuance of an order, as the ledger indexed it. */
export interface OrderIssuance {
  txHash: string;
  blockNumber: number;
  logIndex: number;
  /** The campaign's id (bytes32 hex). */
  campaignId: string | null;
  /** pSP issued, in wei (decimal text). */
  amount: string;
  /** Who issued it (the signer of the mint). */
  minter: string;
}

/** One clawback of an order (PSPVault `expire`: the holder's pSP back into the budget), as the ledger indexed it. */
export interface OrderClawback {
  txHash: string;
  blockNumber: number;
  logIndex: number;
  /** The campaign's id (bytes32 hex). */
  campaignId: string | null;
  /** pSP taken back, in wei (decimal text). */
  amount: string;
}

/** One settlement of an order (the holder's pSP burnt, its SP sent to `receiver`), as the ledger indexed it. */
export interface OrderSettlement extends OrderClawback {
  /** Who got the SP. */
  receiver: string;
}

export interface FoundOrder {
  /** The order reference's salted hash, carried on chain as `order:<hash>`, `settle:<hash>`, `clawback:<hash>`. */
  orderHash: string;
  /** The order's issuances, newest first: one for an order `issuer.issue` sent; none when it was not issued. */
  issuances: OrderIssuance[];
  /** The order's settlements, newest first (metadata `settle:<hash>`, what `issuer.settle` writes). */
  settlements: OrderSettlement[];
  /** The order's clawbacks, newest first (metadata `clawback:<hash>`, what `issuer.clawback` writes). */
  clawbacks: OrderClawback[];
  /**
   * The ledger's last block of the program when the search began: an event mined after it (or
   * still in the node's pool) is not seen yet. Null until the indexer reached the program.
   */
  ledgerBlock: number | null;
}

type HistoryEvent = { txHash: string; blockNumber: number; logIndex: number; campaignId: string | null };
const at = (e: HistoryEvent) => ({
  txHash: e.txHash,
  blockNumber: e.blockNumber,
  logIndex: e.logIndex,
  campaignId: e.campaignId,
});

/** Looks up orders on chain through the API's ledger (docs: "check the chain first"). */
export function ordersNamespace(ledger: ReturnType<typeof ledgerNamespace>) {
  return {
    /**
     * Whether an order reference was issued, settled or clawed back: the customer's ledger
     * history asked for the events whose metadata is `order:<hash>` (what `issuer.issue`
     * writes), `settle:<hash>` (`issuer.settle`) or `clawback:<hash>` (`issuer.clawback`), the
     * hash being `orderHash(salt, orderRef)`. `salt` is the issuer's; `to` the order's customer
     * (the holder of its pSP). The raw reference never leaves the process.
     */
    async find(
      orderRef: string,
      opts: { salt: string; to: string; program?: string } & CallOptions,
    ): Promise<FoundOrder> {
      // order.js brings ethers' hashing: loaded on first use, not with the client.
      const { actionMetadata, checkedAddress, getAddress, orderHash } = await import("../order.js");
      const hash = orderHash(opts.salt, orderRef);
      const tags = { order: actionMetadata("order", hash), settle: actionMetadata("settle", hash) };
      const clawbackTag = actionMetadata("clawback", hash);
      const to = checkedAddress("to", opts.to);
      const { salt: _salt, to: _to, ...pageOpts } = opts;
      const found: FoundOrder = { orderHash: hash, issuances: [], settlements: [], clawbacks: [], ledgerBlock: null };
      const account = (v: unknown) => (typeof v === "string" ? getAddress(v) : undefined);
      // One filtered read per tag, side by side: the API answers only the events carrying it, so
      // the cost does not grow with the customer's history.
      const tagged = async (metadata: string) => {
        const events: Awaited<ReturnType<typeof ledger.holderHistory>>["events"] = [];
        let blockNumber: number | null | undefined;
        let cursor: string | undefined;
        do {
          const page = await ledger.holderHistory(to, {
            ...pageOpts,
            metadata,
            limit: 500,
            ...(cursor ? { cursor } : {}),
          });
          if (blockNumber === undefined) blockNumber = page.blockNumber;
          events.push(...page.events.filter((e) => e.contract === "pspVault"));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        return { events, blockNumber: blockNumber ?? null };
      };
      const [orders, settles, clawbacks] = await Promise.all([
        tagged(tags.order),
        tagged(tags.settle),
        tagged(clawbackTag),
      ]);
      for (const e of orders.events) {
        const args = e.args as Record<string, unknown>;
        if (e.event !== "PSPMinted" || account(args.to) !== to) continue;
        found.issuances.push({ ...at(e), amount: String(args.amount), minter: String(args.minter) });
      }
      for (const e of settles.events) {
        const args = e.args as Record<string, unknown>;
        if (e.event !== "PSPSettled" || account(args.holder) !== to) continue;
        found.settlements.push({ ...at(e), amount: String(args.amount), receiver: String(args.receiver) });
      }
      for (const e of clawbacks.events) {
        const args = e.args as Record<string, unknown>;
        if (e.event !== "PSPExpired" || account(args.holder) !== to) continue;
        found.clawbacks.push({ ...at(e), amount: String(args.amount) });
      }
      // The three reads may see the ledger at different heads: the lowest is what all of them saw.
      const heads = [orders, settles, clawbacks].map((r) => r.blockNumber);
      const ledgerBlock = heads.includes(null) ? null : Math.min(...(heads as number[]));
      return { ...found, ledgerBlock };
    },
  };
}
