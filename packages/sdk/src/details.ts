import type { Hex, UnsignedTx } from "./types.js";

/** A decoded revert (docs/errors.md#reverts): `args` by parameter name, integers as decimal strings. */
export interface DecodedRevert {
  contract: string;
  name: string;
  args: Record<string, string | boolean>;
  selector: string;
  /** Every contract declaring the error, when the one that reverted cannot be told. */
  declaredBy?: string[];
}
import { PointsApiError, type PointsErrorCode } from "./errors.js";

/** What `details` holds for each code (the API's envelope and the SDK's own failures). */
export interface ErrorDetails {
  INVALID_INPUT: { issues?: { field: string; message: string }[] } | undefined;
  /** `anyOf`: the roles any one of which would do (PSPVault's "MANAGER_ROLE or X"). */
  MISSING_ROLE: { contract: string; role: string; account: Hex; anyOf?: string[]; error?: DecodedRevert };
  /** The decoded revert; undecodable revert data has `name: null` and the raw `data`. */
  WOULD_REVERT:
    | (DecodedRevert & { prerequisite?: UnsignedTx })
    | { contract: string; name: null; data?: string; prerequisite?: undefined };
  /** A revert "…NotFound" (an unknown campaign: `CampaignNotFound`), or nothing for a missing program, task… */
  NOT_FOUND: DecodedRevert | undefined;
  /** `reason`: "scope" (the key lacks `needed`), "approval" (a console account not approved to deploy). */
  FORBIDDEN: { reason: string; needed?: string; granted?: string[] } | undefined;
  /** `reason` "quota" with the daily `limit` of deploys; otherwise the per-minute budget. */
  RATE_LIMITED: { reason?: string; limit?: number } | undefined;
  /**
   * An Idempotency-Key used before (`route`, `nonce`), or a nonce already mined (`nonce`, `next`);
   * `reason` "BULK_ID_REUSED" (the bulk routes), or "ORDER_REUSED" (the SDK's `issuer.settle` or
   * `clawback` found the order's earlier one with other terms, `hash` its transaction).
   */
  CONFLICT: { route?: string; nonce?: number; next?: number; reason?: string; hash?: Hex } | undefined;
  TX_REVERTED: { hash: Hex; blockNumber?: number; gasUsed?: string };
  NONCE_CONFLICT: { hash?: Hex; nonce?: number };
  BROADCAST_FAILED: { hash?: Hex; nonce?: number; reason?: string };
  /** `expected`/`actual`: the signer is another address; `reason`: the signer refused or failed to sign. */
  WRONG_SIGNER: { expected: Hex; actual: Hex } | { reason: string } | undefined;
  NETWORK: { aborted?: boolean; timedOut?: boolean; body?: string } | undefined;
  CHAIN_UNAVAILABLE: { hash?: Hex } | undefined;
}
export type DetailsOf<C extends PointsErrorCode> = C extends keyof ErrorDetails ? ErrorDetails[C] : unknown;

/** Whether `e` is a PointsApiError with this code; narrows `details` to that code's shape. */
export function isPointsError<C extends PointsErrorCode>(
  e: unknown,
  code: C,
): e is PointsApiError & { code: C; details: DetailsOf<C> } {
  return e instanceof PointsApiError && e.code === code;
}
