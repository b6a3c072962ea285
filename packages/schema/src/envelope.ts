import { z } from "zod";

export const ERROR_CODES = {
  INVALID_INPUT: 400,
  INVALID_ROWS: 422,
  UNAUTHORIZED: 401,
  MISSING_ROLE: 403,
  FORBIDDEN: 403,
  DEV_CHAIN_ONLY: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  WOULD_REVERT: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  CHAIN_UNAVAILABLE: 502,
  CHAIN_MISMATCH: 503,
  NOT_READY: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

export const ErrorEnvelope = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.enum(Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: "ErrorEnvelope" });

export const success = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });
