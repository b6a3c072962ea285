import { PointsApiError } from "./errors.js";
import { fromNode } from "./chain.js";
import { actionKey, actionMetadata, campaignBytes32, checkedAddress, orderHash } from "./order.js";
import type { Issued, IssuerContext, OrderClawbackRequest } from "./issuerTypes.js";
import type { OrderClawback, OrderIssuance, OrderSettlement } from "./namespaces/orders.js";
import type { OrderAction } from "./order.js";

// An issuer's issue, settle and clawback: loaded by the first of them, not with the client.

const DONE: Record<OrderAction, string> = { order: "issued", settle: "settled", clawback: "clawed back" };

/**
 * Issues, settles or claws back an order once: the ledger is asked first (the holder's history,
 * by the order's hash); an action found there answers its receipt without building anything,
 * one found with other terms is CONFLICT. Otherwise it is queued under the action's own
 * Idempotency-Key (`order-<hash>`, `settle-<hash>`, `clawback-<hash>`), which covers what the
 * ledger has not seen yet (a transaction pending or mined after `ledgerBlock`).
 */
export async function once(
  { core, orders, signer, opts, queue, program }: IssuerContext,
  action: OrderAction,
  request: OrderClawbackRequest & { receiver?: string },
): Promise<Issued> {
  const hash = orderHash(opts.salt, request.orderRef);
  const holder = checkedAddress(action === "order" ? "to" : "holder", request.holder);
  const receiver = action === "settle" ? checkedAddress("receiver", request.receiver ?? "") : undefined;
  const amount = amountText(request.amount);
  const found = await orders.find(request.orderRef, {
    salt: opts.salt,
    to: holder,
    ...(program() === undefined ? {} : { program: program()! }),
  });
  const earlier: (OrderIssuance | OrderSettlement | OrderClawback)[] =
    action === "order" ? found.issuances : action === "settle" ? found.settlements : found.clawbacks;
  const first = earlier[earlier.length - 1]; // newest first
  if (first) {
    const same =
      first.campaignId === campaignBytes32(String(request.campaignId)) &&
      first.amount === amount &&
      (receiver === undefined || checkedAddress("receiver", (first as OrderSettlement).receiver) === receiver);
    if (!same) {
      throw new PointsApiError(
        "CONFLICT",
        `order ${hash} was ${DONE[action]} before with other terms (transaction ${first.txHash})`,
        { details: { reason: "ORDER_REUSED", hash: first.txHash } },
      );
    }
    const provider = signer.provider;
    if (!provider) throw new PointsApiError("WRONG_SIGNER", "the signer has no provider to read receipts with");
    const receipt = await fromNode("the receipt of the order's earlier transaction", () =>
      provider.getTransactionReceipt(first.txHash),
    );
    // The ledger follows the chain some blocks deep, so a node in step with it has the receipt.
    // One without it lags (or follows another fork): sending again could do it twice.
    if (!receipt) {
      throw new PointsApiError(
        "CHAIN_UNAVAILABLE",
        `the ledger has order ${hash} in transaction ${first.txHash} but the signer's node has no receipt for it; nothing was sent`,
        { details: { hash: first.txHash } },
      );
    }
    return { receipt, orderHash: hash, fromLedger: true, ledgerBlock: found.ledgerBlock };
  }
  const { q, from } = await queue();
  const common = {
    holder,
    amount: request.amount,
    campaignId: request.campaignId,
    metadata: actionMetadata(action, hash),
    from,
    program: program(),
  };
  const receipt = await q.submit(
    actionKey(action, hash),
    (nonce, idempotencyKey) => {
      const with_ = { nonce, idempotencyKey };
      if (action === "order") {
        const { holder: to, ...mint } = common;
        return core.write("pspMint", { body: { ...mint, to } }, with_);
      }
      if (action === "settle") return core.write("pspSettle", { body: { ...common, receiver: receiver! } }, with_);
      return core.write("pspExpire", { body: common }, with_);
    },
    signer,
    opts,
  );
  return { receipt, orderHash: hash, fromLedger: false, ledgerBlock: found.ledgerBlock };
}

/** An amount as decimal digits (to compare with the ledger's); anything but a positive integer is INVALID_INPUT. */
function amountText(value: unknown): string {
  let n: bigint | undefined;
  try {
    n = BigInt(value as string | number | bigint);
  } catch {
    n = undefined;
  }
  if (n === undefined || n <= 0n) {
    throw new PointsApiError("INVALID_INPUT", "amount: must be an integer greater than 0", {
      details: { issues: [{ field: "amount", message: "must be an integer greater than 0" }] },
    });
  }
  return n.toString();
}
