import type { ErrorCode } from "@points/schema";
import type { PreparedTx } from "./types.js";

/**
 * Codes of a {@link PointsApiError}: every code the API answers with (docs/errors.md#the-api-envelope), plus
 * three the SDK raises itself:
 * - `NETWORK`: the API could not be reached (connection refused, DNS, timeout, aborted), or
 *   whatever answered was not the API (no JSON envelope, e.g. a proxy's HTML error page).
 * - `WRONG_SIGNER`: `send(signer)` was given a signer whose address is not the transaction's
 *   `from`, or one without a provider to broadcast with, or the signer refused or failed to
 *   sign (`details.reason`). Nothing was signed.
 * - `TX_REVERTED`: the transaction was broadcast and mined, and its receipt says it failed.
 * - `NONCE_CONFLICT`: another transaction of the signer took this one's nonce; this one can
 *   never be mined (build it again).
 * - `BROADCAST_FAILED`: the node refused the signed transaction or could not be reached
 *   (`details.hash`; broadcasting the same bytes again is safe).
 */
export type PointsErrorCode =
  ErrorCode | "NETWORK" | "WRONG_SIGNER" | "TX_REVERTED" | "NONCE_CONFLICT" | "BROADCAST_FAILED";

/** The one error type of the SDK: an API error envelope, or a failure on the way to or after it. */
export class PointsApiError extends Error {
  readonly code: PointsErrorCode;
  /** HTTP status of the API's answer; undefined when there was no API answer. */
  readonly status: number | undefined;
  /** The API's `error.details` (e.g. `{contract, role, account}` for MISSING_ROLE). */
  readonly details: unknown;
  /**
   * For a 422 that needs another transaction first (e.g. an ERC-20 approval), that
   * transaction, ready to `send(signer)`; then build the original call again.
   */
  readonly prerequisite: PreparedTx | undefined;

  constructor(
    code: PointsErrorCode,
    message: string,
    opts: { status?: number; details?: unknown; prerequisite?: PreparedTx; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "PointsApiError";
    this.code = code;
    this.status = opts.status;
    this.details = opts.details;
    this.prerequisite = opts.prerequisite;
  }
}
