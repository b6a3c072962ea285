import type { Signer, Transaction, TransactionReceipt } from "ethers";
import type {
  UnsignedTx as SchemaUnsignedTx,
  RouteBody,
  RouteData,
  RouteParams,
  RouteQuery,
  Routes,
} from "@points/schema";
import type { AddressKey } from "./routeTable.js";
import type { PublicRouteName } from "./routeTypes.js";

// The route table's own types live in routeTypes.ts (the generated routeTable.ts imports them
// and this module imports its AddressKey): re-exported here for the SDK's users.
export type { PublicRouteName, RouteEntry } from "./routeTypes.js";

/** An address or hash as ethers and viem write it. */
export type Hex = `0x${string}`;

/**
 * `T` with every field named in `Keys` holding text (or a list of it) typed `To` instead, at
 * any depth: how results get their address (and, through withBigints, amount) types.
 */
export type MapFields<T, Keys, To> = T extends readonly (infer E)[]
  ? MapFields<E, Keys, To>[]
  : T extends object
    ? { [K in keyof T]: K extends Keys ? FieldAs<T[K], Keys, To> : MapFields<T[K], Keys, To> }
    : T;
// A literal that already is a `To` (the zero address of a Safe transaction) stays that literal.
type FieldAs<V, Keys, To> = V extends string
  ? V extends To
    ? V
    : To
  : V extends readonly (infer E)[]
    ? FieldAs<E, Keys, To>[]
    : MapFields<V, Keys, To>;

/**
 * A result with every address field (by name, see AddressKey) typed `0x${string}`: the API
 * answers addresses checksummed. Arguments take any string (ethers' addresses are `string`);
 * the API validates them.
 */
export type Addressed<T> = MapFields<T, AddressKey, Hex>;

/** The API's unsigned transaction (`data` of every build route), addresses typed. */
export type UnsignedTx = Addressed<SchemaUnsignedTx>;

// A route without params/query/body has the bare zod type there, whose input is `unknown`.
type Part<K extends string, T> = unknown extends T ? {} : {} extends T ? { [k in K]?: T } : { [k in K]: T };

// Integer amounts travel as decimal strings; the SDK also takes bigint and sends its digits.
type AmountKey = "amount" | "spBudget" | "limit" | "requestId";
type WithBigint<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]: K extends AmountKey ? T[K] | bigint : WithBigint<T[K]> }
    : T;

/** What `client.request(name, input)` takes for route `N`: the input types of its schemas. */
export type RequestInput<N extends PublicRouteName> = Part<"params", RouteParams<Routes[N]>> &
  Part<"query", RouteQuery<Routes[N]>> &
  Part<"body", WithBigint<RouteBody<Routes[N]>>> & {
    /** Extra request headers (e.g. Idempotency-Key). */
    headers?: Record<string, string>;
  };

/** `data` of route `N`'s success envelope. */
export type ResponseData<N extends PublicRouteName> = Addressed<RouteData<Routes[N]>>;

/** Body, params and query input types of route `N` (for the namespaces' argument types). */
export type Body<N extends PublicRouteName> = WithBigint<RouteBody<Routes[N]>>;
export type Params<N extends PublicRouteName> = RouteParams<Routes[N]>;
export type Query<N extends PublicRouteName> = RouteQuery<Routes[N]>;

/** Per-call transport options: every call can be aborted and has a deadline. */
export interface CallOptions {
  /** Aborts the call (a PointsApiError NETWORK). */
  signal?: AbortSignal;
  /** Deadline of this call in milliseconds (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Retries of this call when idempotent (default: the client's `maxRetries`, 2). */
  maxRetries?: number;
}

/**
 * Signer and program of a write: `from` signs; `program` (id or Factory address) picks the
 * program; `nonce` builds with that nonce instead of the signer's next pending one;
 * `idempotencyKey` makes retries of the build answer the same transaction (needs an API key).
 */
export type WriteOptions = Pick<Body<"whitelistMintAdd">, "from" | "program"> &
  CallOptions & { nonce?: number; idempotencyKey?: string };
/** Program of a read (id or Factory address); the server's default program when omitted. */
export type ReadOptions = Query<"readBalance"> & CallOptions;

/** A transaction signed by `from`: its raw bytes and hash, known before anything is broadcast. */
export interface SignedTx {
  raw: Hex;
  hash: Hex;
  from: Hex;
  nonce: number;
}

/** Confirmations to wait for and a deadline for mining, in milliseconds. */
export interface WaitOptions {
  confirmations?: number;
  /** Deadline for the receipt (default 300000, 5 minutes): CHAIN_UNAVAILABLE with `details.state` after it. */
  timeoutMs?: number;
  /**
   * Stops waiting (and, for `issue` and `bulk.send`, stops before the next step): ABORTED with
   * `details.state` (queued, built, signed, broadcast) and the hash once signed, to resume from.
   */
  signal?: AbortSignal;
}

/** The fields of an EIP-1559 transaction as viem takes them. */
export interface ViemTransactionFields {
  type: "eip1559";
  chainId: number;
  nonce: number;
  to: `0x${string}`;
  data: `0x${string}`;
  value: bigint;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

/**
 * What `viemSigner` needs of a viem wallet client (`createWalletClient({ account, transport })`):
 * declared here so the SDK's types need no viem (an optional peer dependency).
 */
export interface ViemWalletClient {
  /** "walletClient" (what createWalletClient sets). */
  type: string;
  account?: {
    address: `0x${string}`;
    /** Present on local accounts (a private key): they sign the API's exact fields. */
    signTransaction?(tx: ViemTransactionFields): Promise<`0x${string}`>;
  };
  request(args: { method: string; params?: unknown }): Promise<unknown>;
  sendTransaction(args: ViemTransactionFields & { account: object; chain: null }): Promise<`0x${string}`>;
}

/** The API's unsigned transaction (every field of its `data`) plus the means to send it. */
export type PreparedTx = UnsignedTx & {
  /** The unsigned transaction decoded from `tx` (the exact bytes the API built). */
  transaction(): Transaction;
  /**
   * Signs the API's bytes (a signer holding its key: an ethers `Wallet`); nothing is broadcast.
   * The hash is then known, so a caller can store it before `broadcast`.
   */
  sign(signer: Signer): Promise<SignedTx>;
  /**
   * Signs, broadcasts through the signer's provider and waits for the receipt. Throws
   * PointsApiError: WRONG_SIGNER when the signer is not `from` (nothing is signed),
   * NONCE_CONFLICT or BROADCAST_FAILED when the node refuses it, TX_REVERTED when the mined
   * receipt failed. A transaction already mined is not an error: its receipt is returned.
   * A viem wallet client works through `viemSigner(walletClient)` from `@points/sdk/viem`.
   */
  send(signer: Signer, opts?: WaitOptions): Promise<TransactionReceipt>;
};
