/**
 * Every failure the deployer reports on purpose is a DeployerError with a stable `code`, so the
 * CLI can print it and the API can map it to an HTTP answer without parsing messages.
 */
export type DeployerErrorCode =
  | "INVALID_CONFIG"
  | "BRAND_TAKEN"
  | "BRAND_EXISTS"
  | "PROGRAM_NOT_FOUND"
  | "INSUFFICIENT_FUNDS"
  | "CHAIN_UNAVAILABLE"
  | "WRONG_KEY"
  | "VERIFY_FAILED"
  | "UNSAFE_UPGRADE"
  | "TOO_EARLY"
  | "TRANSACTION_FAILED"
  | "ARTIFACTS_MISSING"
  | "GAS_CAP";

export class DeployerError extends Error {
  readonly code: DeployerErrorCode;
  /** Extra facts for programs (the field, the differences, the schedule time...). */
  readonly details?: Record<string, unknown>;

  constructor(
    code: DeployerErrorCode,
    message: string,
    opts: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "DeployerError";
    this.code = code;
    if (opts.details) this.details = opts.details;
  }
}

export function isDeployerError(e: unknown, code?: DeployerErrorCode): e is DeployerError {
  return e instanceof DeployerError && (code === undefined || e.code === code);
}

/** Shorthand for a config field refused by `validate`. */
export function invalidConfig(field: string, why: string, value?: unknown): DeployerError {
  return new DeployerError("INVALID_CONFIG", `${field}: ${why}`, { details: { field, value } });
}
