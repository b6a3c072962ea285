import { computeHmac, toUtf8Bytes } from "ethers";

// For the client's order lookups, which load this module on first use.
export { getAddress } from "ethers";
import { PointsApiError } from "./errors.js";

/**
 * The salted hash of an order reference: HMAC-SHA256 keyed by the brand's secret salt. It is
 * what goes on chain (a chain is public; the raw order id never does) and what the
 * idempotency key is made of, so the ledger can find an order's issuance by it.
 */
export function orderHash(salt: string, orderRef: string): string {
  if (salt.length < 16) throw new PointsApiError("INVALID_INPUT", "the order salt must be at least 16 characters");
  if (orderRef.length === 0) throw new PointsApiError("INVALID_INPUT", "the order reference is empty");
  return computeHmac("sha256", toUtf8Bytes(salt), toUtf8Bytes(orderRef));
}

/** The metadata an issuance for this order carries on chain. */
export const orderMetadata = (hash: string) => `order:${hash}`;

/** The Idempotency-Key of an order's issuance (printable, derived from the hash only). */
export const orderKey = (hash: string) => `order-${hash.slice(2)}`;
