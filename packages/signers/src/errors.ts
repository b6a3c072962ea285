/** Why the executor's signer refused to start or to sign (docs/errors.md#executor-signer). */
export type SignerErrorCode =
  | "SIGNER_UNAVAILABLE"
  | "SIGNER_LOGIN_FAILED"
  | "SIGNER_KEY_NOT_FOUND"
  | "SIGNER_KEY_CURVE"
  | "SIGNER_KEY_DISABLED"
  | "SIGNER_KEY_DUPLICATE"
  | "SIGNER_TIMEOUT"
  | "SIGNER_INTEGRITY"
  | "SIGNER_ADDRESS_MISMATCH";

export class SignerError extends Error {
  constructor(
    readonly code: SignerErrorCode,
    message: string,
    cause?: unknown,
  ) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "SignerError";
  }
}

/** Resolves as `p` does, or fails with SIGNER_TIMEOUT after `ms` (a token that hangs must not hang a task). */
export function withinTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new SignerError("SIGNER_TIMEOUT", `${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
