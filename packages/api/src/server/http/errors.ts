import type { ErrorRequestHandler, RequestHandler } from "express";
import { ApiError } from "../../core/errors.js";
import { isRpcUnreachable } from "@points/contracts/program";
import { SESSION_SCHEME } from "./auth.js";

/** Unknown routes answer 404 in the envelope, never an HTML page. */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new ApiError("NOT_FOUND", `no route ${req.method} ${req.path}`));
};

/** The last middleware: every failure leaves as the envelope; no stack trace ever leaves. */
export const errorHandler: ErrorRequestHandler = (err, req, res, _next) => {
  const e = toApiError(err);
  if (e.status >= 500) req.log?.error({ err, code: e.code }, e.message);
  else req.log?.info({ code: e.code }, e.message);
  if (e.status === 401) {
    // A 401 without a route's challenge (a wrong sign-in code) belongs to the console session.
    res.setHeader("WWW-Authenticate", (res.locals.challenge as string | undefined) ?? SESSION_SCHEME);
  }
  res.status(e.status).json(e.toEnvelope());
};

function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  // The RPC pool's refusal (src/core/chain/rpcPool.ts) reaches here as is or wrapped by ethers.
  const mismatch = causeOf(err, (c) => c instanceof ApiError && c.code === "CHAIN_MISMATCH");
  if (mismatch) return mismatch as ApiError;
  const type = (err as { type?: string }).type;
  const status = (err as { status?: number }).status;
  if (type === "entity.too.large") {
    const limit = (err as { limit?: number }).limit ?? 0;
    return new ApiError("PAYLOAD_TOO_LARGE", `request body is larger than ${limit > 102_400 ? "2 MB" : "100 kB"}`);
  }
  if (type === "entity.parse.failed") return new ApiError("INVALID_INPUT", "request body is not valid JSON");
  if (type === "encoding.unsupported" || type === "charset.unsupported") {
    return new ApiError("INVALID_INPUT", "request body must be UTF-8 JSON");
  }
  // Any other body-parser failure is the client's (an aborted upload is ECONNABORTED, which
  // isRpcUnreachable would take for a chain outage: a 502 at error level anyone could cause).
  if (typeof type === "string" && typeof status === "number" && status >= 400 && status < 500) {
    return new ApiError(
      "INVALID_INPUT",
      type === "request.aborted" ? "the client aborted the request" : "malformed request",
    );
  }
  // A chain call that escaped a handler's own mapping: still the node's fault, not ours.
  if (isRpcUnreachable(err))
    return new ApiError("CHAIN_UNAVAILABLE", "the chain's node did not answer", undefined, { cause: err });
  if (err instanceof URIError) return new ApiError("INVALID_INPUT", "the URL is not valid percent-encoding");
  if (typeof status === "number" && status >= 400 && status < 500) {
    return new ApiError("INVALID_INPUT", "malformed request");
  }
  return new ApiError("INTERNAL", "internal error", undefined, { cause: err });
}

/** The first error in `err`'s cause chain (ethers' `error`, or `cause`) that `match` accepts. */
function causeOf(err: unknown, match: (e: unknown) => boolean): unknown {
  for (let cur = err, depth = 0; cur && typeof cur === "object" && depth < 5; depth++) {
    if (match(cur)) return cur;
    cur = (cur as { cause?: unknown }).cause ?? (cur as { error?: unknown }).error;
  }
  return undefined;
}
