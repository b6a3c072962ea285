import type { Signer } from "ethers";
import type { Core } from "./namespaces/core.js";
import type { ordersNamespace } from "./namespaces/orders.js";
import type { NonceQueue } from "./queue.js";
import type {
  ClawedBack,
  IssuerContext,
  IssuerOptions,
  Issued,
  Order,
  OrderClawbackRequest,
  OrderSettlementRequest,
  Settled,
} from "./issuerTypes.js";

export type {
  ClawedBack,
  IssuerContext,
  IssuerOptions,
  Issued,
  Order,
  OrderClawbackRequest,
  OrderSettlementRequest,
  Settled,
} from "./issuerTypes.js";

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
