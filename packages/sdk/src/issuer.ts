import type { Signer, TransactionReceipt } from "ethers";
import type { Core } from "./namespaces/core.js";
import type { Body } from "./types.js";
import type { NonceQueue, NonceQueueOptions } from "./queue.js";

type Mint = Body<"pspMint">;

/** One order's points: issued into `campaignId` for `to`, identified by the brand's order reference. */
export interface Order {
  /** The brand's own order id; it never leaves the process except as a salted hash. */
  orderRef: string;
  campaignId: Mint["campaignId"];
  to: Mint["to"];
  amount: Mint["amount"];
}

export interface IssuerOptions extends NonceQueueOptions {
  /** A secret of at least 16 characters: the same salt finds the same orders again. */
  salt: string;
  /** Program of the issuance (default: the client's). */
  program?: string;
}

export interface Issued {
  receipt: TransactionReceipt;
  /** The salted hash written into the issuance's metadata as `order:<hash>`. */
  orderHash: string;
}

/**
 * Issues pSP for orders exactly once per order reference: the reference's salted hash is the
 * build's Idempotency-Key and the on-chain metadata, and one queue per signer address orders
 * the nonces. Retrying an order (concurrently, or later within the API's idempotency window)
 * returns the receipt of its one issuance.
 */
export function issuerFactory(core: Core) {
  const queues = new Map<string, NonceQueue>();
  return (signer: Signer, opts: IssuerOptions) => {
    let address: Promise<string> | undefined;
    // The queue and order hashing bring ethers: loaded by the first issue, not with the client.
    const load = () => Promise.all([import("./queue.js"), import("./order.js")]);
    const queue = async () => {
      const [{ NonceQueue }, { getAddress }] = await load();
      const from = await (address ??= signer.getAddress().then(getAddress));
      let q = queues.get(from);
      if (!q) queues.set(from, (q = new NonceQueue()));
      return { q, from };
    };
    return {
      async issue(order: Order): Promise<Issued> {
        const { orderHash, orderKey, orderMetadata } = (await load())[1];
        const hash = orderHash(opts.salt, order.orderRef);
        const { q, from } = await queue();
        const receipt = await q.submit(
          orderKey(hash),
          (nonce, idempotencyKey) =>
            core.write(
              "pspMint",
              {
                body: {
                  campaignId: order.campaignId,
                  to: order.to,
                  amount: order.amount,
                  metadata: orderMetadata(hash),
                  from,
                  program: opts.program ?? core.program,
                },
              },
              { nonce, idempotencyKey },
            ),
          signer,
          opts,
        );
        return { receipt, orderHash: hash };
      },
    };
  };
}
