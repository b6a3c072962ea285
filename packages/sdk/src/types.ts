import type { Signer, Transaction, TransactionReceipt } from "ethers";
import type { RouteBody, RouteData, RouteName, RouteParams, RouteQuery, Routes, UnsignedTx } from "@points/schema";

// A route without params/query/body has the bare zod type there, whose input is `unknown`.
type Part<K extends string, T> = unknown extends T ? {} : {} extends T ? { [k in K]?: T } : { [k in K]: T };

/** What `client.request(name, input)` takes for route `N`: the input types of its schemas. */
export type RequestInput<N extends RouteName> = Part<"params", RouteParams<Routes[N]>> &
  Part<"query", RouteQuery<Routes[N]>> &
  Part<"body", RouteBody<Routes[N]>> & {
    /** Extra request headers (e.g. Idempotency-Key). */
    headers?: Record<string, string>;
  };

/** `data` of route `N`'s success envelope. */
export type ResponseData<N extends RouteName> = RouteData<Routes[N]>;

/** Body, params and query input types of route `N` (for the namespaces' argument types). */
export type Body<N extends RouteName> = RouteBody<Routes[N]>;
export type Params<N extends RouteName> = RouteParams<Routes[N]>;
export type Query<N extends RouteName> = RouteQuery<Routes[N]>;

/** Signer and program of a write: `from` signs; `program` (id or Factory address) picks the program. */
export type WriteOptions = Pick<Body<"whitelistMintAdd">, "from" | "program">;
/** Program of a read (id or Factory address); the server's default program when omitted. */
export type ReadOptions = Query<"readBalance">;

/** The API's unsigned transaction (every field of its `data`) plus the means to send it. */
export type PreparedTx = UnsignedTx & {
  /** The unsigned transaction decoded from `tx` (the exact bytes the API built). */
  transaction(): Transaction;
  /**
   * Signs with `signer`, broadcasts through the signer's provider and waits for the receipt.
   * Throws PointsApiError WRONG_SIGNER when the signer is not `from` (nothing is signed) and
   * TX_REVERTED when the mined receipt failed. Errors of the node itself (nonce too low,
   * insufficient funds) are ethers errors, unchanged.
   */
  send(signer: Signer, opts?: { confirmations?: number }): Promise<TransactionReceipt>;
};
