// The issuer's types, apart from issuer.ts so that orderActions.ts (which issuer.ts loads on
// first use) can take them without importing issuer.ts back.
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
