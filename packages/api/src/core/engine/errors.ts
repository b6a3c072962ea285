/** Why the engine could not send or follow a transaction (docs/errors.md#transaction-engine). */
export type EngineErrorCode =
  "INSUFFICIENT_FUNDS" | "TX_REJECTED" | "NONCE_TAKEN" | "UNKNOWN_NONCE" | "TX_TIMEOUT" | "ENGINE_STOPPED";

export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "EngineError";
  }
}
