import type { z } from "zod";
import { ApiError } from "../../core/errors.js";
import { findUnsafeInput } from "./safeInput.js";

/** Query parameters the route does not declare are ignored, so they are not checked either. */
function declaredOnly(schema: z.ZodType, value: unknown): unknown {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  if (!shape || typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k in shape));
}

/** Parses one part of a request; failures are 400 INVALID_INPUT naming every bad field. */
export function parsePart<S extends z.ZodType>(schema: S | undefined, value: unknown, part: string): z.output<S> {
  if (!schema) return undefined as z.output<S>;
  const unsafe = findUnsafeInput(part === "query" ? declaredOnly(schema, value) : value);
  if (unsafe) {
    const field = [part, ...unsafe.path.map(String)].join(".");
    throw new ApiError("INVALID_INPUT", `${field}: ${unsafe.message}`, {
      issues: [{ field, message: unsafe.message }],
    });
  }
  const result = schema.safeParse(part === "body" ? value : (value ?? {}));
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({
    field: [part, ...i.path.map(String)].join("."),
    message: i.message,
  }));
  const first = issues[0];
  const message =
    value === undefined && part === "body"
      ? "body is required: send JSON with Content-Type: application/json"
      : first === undefined
        ? `${part} is invalid`
        : `${first.field}: ${first.message}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ""}`;
  throw new ApiError("INVALID_INPUT", message, { issues });
}
