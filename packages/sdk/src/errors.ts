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
 * - `ABORTED`: the caller's `signal` stopped a send, issue or wait; `details.state` says how far
 *   it got (`queued`: nothing built; `built`; `signed`: not broadcast, `details.hash`;
 *   `broadcast`: may still be mined, `details.hash`). Calling it again with the same order or
 *   plan resumes without a second copy.
 */
export type PointsErrorCode =
  ErrorCode | "NETWORK" | "WRONG_SIGNER" | "TX_REVERTED" | "NONCE_CONFLICT" | "BROADCAST_FAILED" | "ABORTED";

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
  /** The answer's Retry-After in milliseconds (a 429 or 503 after the SDK's retries ran out). */
  readonly retryAfterMs: number | undefined;

  constructor(
    code: PointsErrorCode,
    message: string,
    opts: {
      status?: number;
      details?: unknown;
      prerequisite?: PreparedTx;
      cause?: unknown;
      retryAfterMs?: number;
    } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "PointsApiError";
    this.code = code;
    this.status = opts.status;
    this.details = opts.details;
    this.prerequisite = opts.prerequisite;
    this.retryAfterMs = opts.retryAfterMs;
  }
}
