import { ERROR_CODES, type ErrorCode } from "@points/schema";

/**
 * The one error type of the service: a code of docs/errors.md#the-api-envelope (which fixes the
 * HTTP status), a short message for people, optional structured details for programs, and the
 * underlying cause (logged, never sent).
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "ApiError";
    this.status = ERROR_CODES[code];
  }

  toEnvelope() {
    return {
      success: false as const,
      error: {
        code: this.code,
        message: this.message,
        ...(this.details === undefined ? {} : { details: this.details }),
      },
    };
  }
}

export const invalidInput = (message: string, details?: unknown) => new ApiError("INVALID_INPUT", message, details);
export const notFound = (message: string, details?: unknown) => new ApiError("NOT_FOUND", message, details);
