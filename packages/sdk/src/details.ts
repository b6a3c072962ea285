import type { UnsignedTx } from "@points/schema";
import { PointsApiError, type PointsErrorCode } from "./errors.js";

/** What `details` holds for each code (the API's envelope and the SDK's own failures). */
export interface ErrorDetails {
  INVALID_INPUT: { issues?: { field: string; message: string }[] } | undefined;
  MISSING_ROLE: { contract: string; role: string; account: string };
  WOULD_REVERT: { contract: string; name: string; args: Record<string, unknown>; prerequisite?: UnsignedTx };
  NOT_FOUND: { contract?: string; name?: string; args?: Record<string, unknown> } | undefined;
  /** An Idempotency-Key used before (`route`, `nonce`), or a nonce already mined (`nonce`, `next`). */
  CONFLICT: { route?: string; nonce?: number; next?: number } | undefined;
  TX_REVERTED: { hash: string; blockNumber?: number; gasUsed?: string };
  NONCE_CONFLICT: { hash?: string; nonce?: number };
  BROADCAST_FAILED: { hash?: string; nonce?: number; reason?: string };
  WRONG_SIGNER: { expected: string; actual: string } | undefined;
  NETWORK: { aborted?: boolean; timedOut?: boolean; body?: string } | undefined;
  CHAIN_UNAVAILABLE: { hash?: string } | undefined;
}
export type DetailsOf<C extends PointsErrorCode> = C extends keyof ErrorDetails ? ErrorDetails[C] : unknown;

/** Whether `e` is a PointsApiError with this code; narrows `details` to that code's shape. */
export function isPointsError<C extends PointsErrorCode>(
  e: unknown,
  code: C,
): e is PointsApiError & { code: C; details: DetailsOf<C> } {
  return e instanceof PointsApiError && e.code === code;
}
