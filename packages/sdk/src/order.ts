import { computeHmac, getAddress, id, toUtf8Bytes } from "ethers";

// For the client's order lookups, which load this module on first use.
export { getAddress } from "ethers";
import { PointsApiError } from "./errors.js";

/**
 * The salted hash of an order reference: HMAC-SHA256 keyed by the brand's secret salt. It is
 * what goes on chain (a chain is public; the raw order id never does) and what the
 * idempotency key is made of, so the ledger can find an order's issuance, settlement and
 * clawback by it.
 */
export function orderHash(salt: string, orderRef: string): string {
  if (salt.length < 16) throw new PointsApiError("INVALID_INPUT", "the order salt must be at least 16 characters");
  if (orderRef.length === 0) throw new PointsApiError("INVALID_INPUT", "the order reference is empty");
  return computeHmac("sha256", toUtf8Bytes(salt), toUtf8Bytes(orderRef));
}

/**
 * What is done once per order: its issuance (`order`), its settlement (`settle`) and its
 * clawback (`clawback`). Each writes its own metadata and uses its own Idempotency-Key, so the
 * three never share a key although they share the order's hash.
 */
export type OrderAction = "order" | "settle" | "clawback";

/** The metadata the action for this order carries on chain: `order:<hash>`, `settle:<hash>`, `clawback:<hash>`. */
export const actionMetadata = (action: OrderAction, hash: string) => `${action}:${hash}`;

/** The Idempotency-Key of the action for this order (printable, derived from the hash only). */
export const actionKey = (action: OrderAction, hash: string) => `${action}-${hash.slice(2)}`;

/** The metadata an issuance for this order carries on chain. */
export const orderMetadata = (hash: string) => actionMetadata("order", hash);

/** The Idempotency-Key of an order's issuance (printable, derived from the hash only). */
export const orderKey = (hash: string) => actionKey("order", hash);

/** An address, checksummed; anything else is INVALID_INPUT naming `field` (before any request). */
export function checkedAddress(field: string, value: string): string {
  try {
    return getAddress(value);
  } catch {
    throw new PointsApiError("INVALID_INPUT", `${field}: not an address`, {
      details: { issues: [{ field, message: "not an address" }] },
    });
  }
}

/** The bytes32 a campaign id names on chain: 0x + 64 hex digits as is (lowercase), a label's keccak256. */
export const campaignBytes32 = (campaignId: string) =>
  /^0x[0-9a-fA-F]{64}$/.test(campaignId) ? campaignId.toLowerCase() : id(campaignId);
