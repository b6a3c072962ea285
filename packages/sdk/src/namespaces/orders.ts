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

export interface FoundOrder {
  /** The salted hash the issuance carries on chain as `order:<hash>`. */
  orderHash: string;
  /** The order's issuances, newest first: one for an order `issuer.issue` sent; none when it was not issued. */
  issuances: OrderIssuance[];
  /**
   * The ledger's last block of the program when the search began: an issuance mined after it (or
   * still in the node's pool) is not seen yet. Null until the indexer reached the program.
   */
  ledgerBlock: number | null;
}

/** Looks up orders on chain through the API's ledger (docs: "check the chain first"). */
export function ordersNamespace(ledger: ReturnType<typeof ledgerNamespace>) {
  return {
    /**
     * Whether an order reference was issued: the customer's ledger history searched for the
     * issuance whose metadata is `order:<orderHash(salt, orderRef)>` (what `issuer.issue` writes).
     * `salt` is the issuer's; `to` the order's customer. The raw reference never leaves the process.
     */
    async find(
      orderRef: string,
      opts: { salt: string; to: string; program?: string } & CallOptions,
    ): Promise<FoundOrder> {
      // order.js brings ethers' hashing: loaded on first use, not with the client.
      const { getAddress, orderHash, orderMetadata } = await import("../order.js");
      const hash = orderHash(opts.salt, orderRef);
      const tag = orderMetadata(hash);
      const to = getAddress(opts.to);
      const { salt: _salt, to: _to, ...pageOpts } = opts;
      const issuances: OrderIssuance[] = [];
      let ledgerBlock: number | null | undefined;
      let cursor: string | undefined;
      do {
        const page = await ledger.holderHistory(to, { ...pageOpts, limit: 500, ...(cursor ? { cursor } : {}) });
        if (ledgerBlock === undefined) ledgerBlock = page.blockNumber;
        for (const e of page.events) {
          const args = e.args as Record<string, unknown>;
          if (e.contract !== "pspVault" || e.event !== "PSPMinted" || args.metadata !== tag) continue;
          if (typeof args.to !== "string" || getAddress(args.to) !== to) continue;
          issuances.push({
            txHash: e.txHash,
            blockNumber: e.blockNumber,
            logIndex: e.logIndex,
            campaignId: e.campaignId,
            amount: String(args.amount),
            minter: String(args.minter),
          });
        }
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return { orderHash: hash, issuances, ledgerBlock: ledgerBlock ?? null };
    },
  };
}
