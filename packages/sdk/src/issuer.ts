import type { Signer, TransactionReceipt } from "ethers";
import type { Core } from "./namespaces/core.js";
import type { ordersNamespace } from "./namespaces/orders.js";
import type { Body } from "./types.js";
import type { NonceQueue, NonceQueueOptions } from "./queue.js";

type Mint = Body<"pspMint">;
type Settle = Body<"pspSettle">;

/** One order's points: issued into `campaignId` for `to`, identified by the brand's order reference. */
export interface Order {
  /** The brand's own order id; it never leaves the process except as a salted hash. */
  orderRef: string;
  campaignId: Mint["campaignId"];
  to: Mint["to"];
  amount: Mint["amount"];
}

/** An order's clawback: `amount` of `holder`'s pSP in `campaignId` back into the campaign's budget (PSPVault `expire`). */
export interface OrderClawbackRequest {
  /** The brand's own order id (the one its points were issued under); only its salted hash leaves the process. */
  orderRef: string;
  campaignId: Settle["campaignId"];
  holder: Settle["holder"];
  amount: Settle["amount"];
}

/** An order's settlement: `amount` of `holder`'s pSP in `campaignId` burnt and its SP sent to `receiver`. */
export interface OrderSettlementRequest extends OrderClawbackRequest {
  /** On the campaign's settlement allowlist (docs/rules.md). */
  receiver: Settle["receiver"];
}

export interface IssuerOptions extends NonceQueueOptions {
  /** A secret of at least 16 characters: the same salt finds the same orders again. */
  salt: string;
  /** Program of the issuance (default: the client's). */
  program?: string;
}

/** The outcome of `issue`, `settle` or `clawback`: the receipt of the order's one transaction for it. */
export interface Issued {
  receipt: TransactionReceipt;
  /** The salted hash written into the metadata as `order:<hash>` (`settle:<hash>`, `clawback:<hash>`). */
  orderHash: string;
  /** True when the ledger already had the order's issuance (settlement, clawback): nothing was built or sent. */
  fromLedger: boolean;
  /**
   * The ledger's last block when it was checked (null before the indexer reached the program):
   * an earlier transaction mined after it was not seen by the check, only by the Idempotency-Key.
   */
  ledgerBlock: number | null;
}

export type Settled = Issued;
export type ClawedBack = Settled;

/** What one issuer's issue, settle and clawback work with (its client, signer, options and queue). */
export interface IssuerContext {
  core: Core;
  orders: ReturnType<typeof ordersNamespace>;
  signer: Signer;
  opts: IssuerOptions;
  queue: () => Promise<{ q: NonceQueue; from: string }>;
  program: () => string | undefined;
}

/**
 * Issues, settles and claws back pSP for orders exactly once per order reference and action:
 * the ledger is asked first for the order's earlier transaction (by the reference's salted
 * hash, which the metadata carries on chain); what it has not seen yet is covered by the
 * build's Idempotency-Key, the same hash. One queue per signer address orders the nonces.
 */
export function issuerFactory(core: Core, orders: ReturnType<typeof ordersNamespace>) {
  const queues = new Map<string, NonceQueue>();
  return (signer: Signer, opts: IssuerOptions) => {
    let address: Promise<string> | undefined;
    // The queue and order hashing bring ethers: loaded by the first issue, not with the client.
    const queue = async () => {
      const [{ NonceQueue }, { getAddress }] = await Promise.all([import("./queue.js"), import("./order.js")]);
      const from = await (address ??= signer.getAddress().then(getAddress));
      let q = queues.get(from);
      if (!q) queues.set(from, (q = new NonceQueue()));
      return { q, from };
    };
    const program = () => opts.program ?? core.program;
    const ctx: IssuerContext = { core, orders, signer, opts, queue, program };

    return {
      /**
       * Issues an order's pSP once per order reference (metadata `order:<hash>`, Idempotency-Key
       * `order-<hash>`): an earlier issuance the ledger holds is answered without sending.
       */
      issue: async (order: Order): Promise<Issued> =>
        (await import("./orderActions.js")).once(ctx, "order", { ...order, holder: order.to }),
      /**
       * Settles an order's pSP once per order reference (metadata `settle:<hash>`, Idempotency-Key
       * `settle-<hash>`): an earlier settlement the ledger holds is answered without sending.
       */
      settle: async (settlement: OrderSettlementRequest): Promise<Settled> =>
        (await import("./orderActions.js")).once(ctx, "settle", settlement),
      /**
       * Claws an order's pSP back into the budget once per order reference (PSPVault `expire`;
       * metadata `clawback:<hash>`, Idempotency-Key `clawback-<hash>`), like `settle`.
       */
      clawback: async (clawback: OrderClawbackRequest): Promise<ClawedBack> =>
        (await import("./orderActions.js")).once(ctx, "clawback", clawback),
    };
  };
}
