/**
 * What a node's refusal of `eth_sendRawTransaction` means, whichever node said it. Nodes agree on few words: Hardhat
 * says "Known transaction", anvil "transaction already imported", geth "already known"; Hardhat's nonce refusal is
 * "Transaction nonce too low", anvil's "nonce too low" with code -32003 where Hardhat uses -32000. One table holds
 * every known text (docs/architecture.md#nodes-and-networks); each class has one action.
 */

import type { SendErrorClass } from "./sendErrorClass.js";

export type { SendErrorClass } from "./sendErrorClass.js";

/**
 * What a sender does about each class: `wait` (the transaction is, or will be, where it should: look again later),
 * `reprice` (send it again with higher fees), `reread_nonce` (the account's nonce moved: read it again before the
 * next send) or `fail` with the named code (TX_REJECTED with the class named in the message, where no retry helps).
 */
export type SendErrorAction =
  | { action: "wait" }
  | { action: "reprice" }
  | { action: "reread_nonce" }
  | {
      action: "fail";
      code: "INSUFFICIENT_FUNDS" | "GAS_TOO_LOW" | "GAS_OVER_BLOCK_LIMIT" | "NODE_UNSUPPORTED" | "TX_REJECTED";
    };

export const SEND_ERROR_ACTIONS: Record<SendErrorClass, SendErrorAction> = {
  already_known: { action: "wait" },
  nonce_too_low: { action: "reread_nonce" },
  nonce_too_high: { action: "reread_nonce" },
  replacement_underpriced: { action: "reprice" },
  fee_below_base_fee: { action: "reprice" },
  underpriced: { action: "reprice" },
  insufficient_funds: { action: "fail", code: "INSUFFICIENT_FUNDS" },
  intrinsic_gas_too_low: { action: "fail", code: "TX_REJECTED" },
  exceeds_block_gas_limit: { action: "fail", code: "TX_REJECTED" },
  rate_limited: { action: "wait" },
  method_not_found: { action: "fail", code: "TX_REJECTED" },
  unknown: { action: "fail", code: "TX_REJECTED" },
};

export { NODE_ERROR_TABLE, type NodeErrorRow, type NodeName, type RowSource } from "./nodeErrorTable.js";

/** The texts of each class, checked in this order: the first match wins ("replacement ... underpriced" before "underpriced"). */
const PATTERNS: readonly (readonly [Exclude<SendErrorClass, "unknown">, RegExp])[] = [
  ["already_known", /already known|known transaction|already imported|already exists|\bAlreadyKnown\b/i],
  ["replacement_underpriced", /replacement transaction underpriced|\bReplacementNotAllowed\b/i],
  ["nonce_too_low", /nonce too low|\bOldNonce\b/i],
  ["nonce_too_high", /nonce too high|\bNonceGap\b/i],
  [
    "fee_below_base_fee",
    /max fee per gas less than block base fee|fee cap less than block base fee|less than the current basefee|too low for the next block|\bFeeTooLow\b(?!ToCompete)/i,
  ],
  ["underpriced", /transaction underpriced|below configured minimum gas price|\bFeeTooLowToCompete\b/i],
  [
    "insufficient_funds",
    /insufficient funds|doesn't have enough funds|upfront cost exceeds account balance|\bInsufficientFunds\b/i,
  ],
  ["intrinsic_gas_too_low", /intrinsic gas too low|requires at least \d+ gas|intrinsic gas exceeds gas limit/i],
  [
    "exceeds_block_gas_limit",
    /exceeds block gas limit|exceeds transaction gas cap|intrinsic gas too high|\bGasLimitExceeded\b/i,
  ],
  ["rate_limited", /too many requests|rate limit|limit exceeded|exceeded .* capacity/i],
  ["method_not_found", /method .*(not supported|does not exist|not available)|method not found/i],
];

/**
 * The node's JSON-RPC error in a failed call, or undefined when no node answered (a timeout, a dropped connection, an
 * HTTP error without a JSON-RPC body). ethers keeps the answer on `error`, or on `info.error` where it turned the
 * answer into one of its own codes (NONCE_EXPIRED, REPLACEMENT_UNDERPRICED, INSUFFICIENT_FUNDS).
 */
export function rpcAnswer(e: unknown): { code: number; message: string } | undefined {
  for (let cur = e, depth = 0; cur && typeof cur === "object" && depth < 5; depth++) {
    const c = cur as { error?: unknown; info?: { error?: unknown }; cause?: unknown };
    for (const inner of [c.error, c.info?.error]) {
      const { code, message } = (inner ?? {}) as { code?: unknown; message?: unknown };
      if (typeof code === "number" && typeof message === "string") return { code, message };
    }
    cur = c.cause;
  }
  return undefined;
}

/** The class of a node's refusal: by its text first, then by the codes that mean one thing on every node. */
export function classifySendError(e: unknown): SendErrorClass {
  const answer = rpcAnswer(e);
  const { code, message } = answer ?? {
    code: undefined,
    message: e instanceof Error ? e.message : "",
  };
  for (const [cls, re] of PATTERNS) if (re.test(message)) return cls;
  if (code === 429 || code === -32005) return "rate_limited";
  if (code === -32601) return "method_not_found";
  return "unknown";
}
