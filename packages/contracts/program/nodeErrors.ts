/**
 * What a node's refusal of `eth_sendRawTransaction` means, whichever node said it. Nodes agree on few words: Hardhat
 * says "Known transaction", anvil "transaction already imported", geth "already known"; Hardhat's nonce refusal is
 * "Transaction nonce too low", anvil's "nonce too low" with code -32003 where Hardhat uses -32000. One table holds
 * every known text (docs/architecture.md#nodes-and-networks); each class has one action.
 */

/** The kinds of refusal a sender must tell apart. */
export type SendErrorClass =
  | "already_known"
  | "nonce_too_low"
  | "nonce_too_high"
  | "replacement_underpriced"
  | "fee_below_base_fee"
  | "underpriced"
  | "insufficient_funds"
  | "intrinsic_gas_too_low"
  | "exceeds_block_gas_limit"
  | "rate_limited"
  | "method_not_found"
  | "unknown";

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

export type NodeName = "geth" | "reth" | "erigon" | "nethermind" | "besu" | "anvil" | "hardhat" | "provider";

/**
 * Where a row comes from: `observed` (answered by the node itself in this repository's tests: Hardhat 3.18 and anvil
 * 1.7.1), `source` (the node's source code, error constant named), `inferred` (the node's documentation or a mapping
 * from its error enum to text that was not seen verbatim).
 */
export type RowSource = "observed" | "source" | "inferred";

export interface NodeErrorRow {
  node: NodeName;
  class: Exclude<SendErrorClass, "unknown">;
  /** The JSON-RPC error code the node answers with (429 where the refusal is an HTTP status). */
  code: number;
  /** The node's message, verbatim where observed or quoted from source; numbers are examples. */
  message: string;
  source: RowSource;
  /** Where the text is defined, for a `source` or `inferred` row. */
  where?: string;
}

export const NODE_ERROR_TABLE: readonly NodeErrorRow[] = [
  // Hardhat 3.18 (EDR), observed by packages/api/test/chain.nodeErrors.test.ts.
  {
    node: "hardhat",
    class: "already_known",
    code: -32000,
    message: "Known transaction: 0x1abe…ec4a",
    source: "observed",
  },
  {
    node: "hardhat",
    class: "nonce_too_low",
    code: -32000,
    message: "Transaction nonce too low. Expected nonce to be at least 1 but got 0.",
    source: "observed",
  },
  {
    node: "hardhat",
    class: "replacement_underpriced",
    code: -32000,
    message:
      "Replacement transaction underpriced. A gasPrice/maxFeePerGas of at least 2200000000 is necessary to replace the existing transaction with nonce 0.",
    source: "observed",
  },
  {
    node: "hardhat",
    class: "fee_below_base_fee",
    code: -32000,
    message:
      "Transaction maxFeePerGas (250000000) is too low for the next block, which has a baseFeePerGas of 875000000",
    source: "observed",
  },
  {
    node: "hardhat",
    class: "insufficient_funds",
    code: -32000,
    message:
      "Sender doesn't have enough funds to send tx. The max upfront cost is: 42000000000001 and the sender's balance is: 0.",
    source: "observed",
  },
  {
    node: "hardhat",
    class: "intrinsic_gas_too_low",
    code: -32000,
    message: "Transaction requires at least 21000 gas but got 100",
    source: "observed",
  },
  {
    node: "hardhat",
    class: "exceeds_block_gas_limit",
    code: -32000,
    message: "Transaction gas limit is 70000000 and exceeds transaction gas cap of 16777216",
    source: "observed",
  },
  {
    node: "hardhat",
    class: "method_not_found",
    code: -32004,
    message: "Method eth_noSuchMethod is not supported",
    source: "observed",
  },
  // anvil 1.7.1, observed by the same test.
  { node: "anvil", class: "already_known", code: -32003, message: "transaction already imported", source: "observed" },
  { node: "anvil", class: "nonce_too_low", code: -32003, message: "nonce too low", source: "observed" },
  {
    node: "anvil",
    class: "replacement_underpriced",
    code: -32003,
    message: "replacement transaction underpriced",
    source: "observed",
  },
  {
    node: "anvil",
    class: "fee_below_base_fee",
    code: -32003,
    message: "max fee per gas less than block base fee",
    source: "observed",
  },
  {
    node: "anvil",
    class: "insufficient_funds",
    code: -32003,
    message: "Insufficient funds for gas * price + value",
    source: "observed",
  },
  { node: "anvil", class: "intrinsic_gas_too_low", code: -32000, message: "intrinsic gas too low", source: "observed" },
  {
    node: "anvil",
    class: "exceeds_block_gas_limit",
    code: -32000,
    message: "intrinsic gas too high -- tx.gas_limit > env.block.gas_limit",
    source: "observed",
  },
  { node: "anvil", class: "method_not_found", code: -32601, message: "Method not found", source: "observed" },
  // geth: core/txpool/errors.go, core/error.go; every pool refusal is -32000.
  {
    node: "geth",
    class: "already_known",
    code: -32000,
    message: "already known",
    source: "source",
    where: "txpool.ErrAlreadyKnown",
  },
  {
    node: "geth",
    class: "nonce_too_low",
    code: -32000,
    message: "nonce too low: address 0x70997970C51812dc3A010C7d01b50e0d17dc79C8, tx: 5 state: 7",
    source: "source",
    where: "core.ErrNonceTooLow",
  },
  {
    node: "geth",
    class: "nonce_too_high",
    code: -32000,
    message: "nonce too high",
    source: "source",
    where: "core.ErrNonceTooHigh",
  },
  {
    node: "geth",
    class: "replacement_underpriced",
    code: -32000,
    message: "replacement transaction underpriced",
    source: "source",
    where: "txpool.ErrReplaceUnderpriced",
  },
  {
    node: "geth",
    class: "fee_below_base_fee",
    code: -32000,
    message:
      "max fee per gas less than block base fee: address 0x70997970C51812dc3A010C7d01b50e0d17dc79C8, maxFeePerGas: 1 baseFee: 7",
    source: "source",
    where: "core.ErrFeeCapTooLow",
  },
  {
    node: "geth",
    class: "underpriced",
    code: -32000,
    message: "transaction underpriced: tip needed 1000000, tip permitted 1",
    source: "source",
    where: "txpool.ErrUnderpriced",
  },
  {
    node: "geth",
    class: "insufficient_funds",
    code: -32000,
    message: "insufficient funds for gas * price + value: balance 0, tx cost 21000",
    source: "source",
    where: "core.ErrInsufficientFunds",
  },
  {
    node: "geth",
    class: "intrinsic_gas_too_low",
    code: -32000,
    message: "intrinsic gas too low: gas 100, minimum needed 21000",
    source: "source",
    where: "core.ErrIntrinsicGas",
  },
  {
    node: "geth",
    class: "exceeds_block_gas_limit",
    code: -32000,
    message: "exceeds block gas limit",
    source: "source",
    where: "txpool.ErrGasLimit",
  },
  {
    node: "geth",
    class: "method_not_found",
    code: -32601,
    message: "the method eth_noSuchMethod does not exist/is not available",
    source: "source",
    where: "rpc.methodNotFoundError",
  },
  // reth: crates/rpc/rpc-eth-types/src/error (RpcInvalidTransactionError, RpcPoolError); geth-compatible texts.
  {
    node: "reth",
    class: "already_known",
    code: -32000,
    message: "already known",
    source: "source",
    where: "RpcPoolError::AlreadyKnown",
  },
  {
    node: "reth",
    class: "nonce_too_low",
    code: -32003,
    message: "nonce too low: next nonce 7, tx nonce 5",
    source: "inferred",
    where: "RpcInvalidTransactionError::NonceTooLow",
  },
  {
    node: "reth",
    class: "replacement_underpriced",
    code: -32000,
    message: "replacement transaction underpriced",
    source: "source",
    where: "RpcPoolError::ReplaceUnderpriced",
  },
  {
    node: "reth",
    class: "fee_below_base_fee",
    code: -32003,
    message: "max fee per gas less than block base fee",
    source: "inferred",
    where: "RpcInvalidTransactionError::FeeCapTooLow",
  },
  {
    node: "reth",
    class: "insufficient_funds",
    code: -32003,
    message: "insufficient funds for gas * price + value: have 0 want 21000",
    source: "inferred",
    where: "RpcInvalidTransactionError::InsufficientFunds",
  },
  {
    node: "reth",
    class: "underpriced",
    code: -32000,
    message: "transaction underpriced",
    source: "source",
    where: "RpcPoolError::Underpriced",
  },
  {
    node: "reth",
    class: "exceeds_block_gas_limit",
    code: -32000,
    message: "exceeds block gas limit",
    source: "source",
    where: "RpcPoolError::ExceedsGasLimit",
  },
  // Erigon: txpool DiscardReason texts through its RPC (geth-compatible where it can be).
  {
    node: "erigon",
    class: "already_known",
    code: -32000,
    message: "already known",
    source: "inferred",
    where: "txpoolcfg.DuplicateHash",
  },
  {
    node: "erigon",
    class: "nonce_too_low",
    code: -32000,
    message: "nonce too low",
    source: "inferred",
    where: "txpoolcfg.NonceTooLow",
  },
  {
    node: "erigon",
    class: "replacement_underpriced",
    code: -32000,
    message: "replacement transaction underpriced",
    source: "inferred",
    where: "txpoolcfg.NotReplaced",
  },
  {
    node: "erigon",
    class: "fee_below_base_fee",
    code: -32000,
    message: "fee cap less than block base fee",
    source: "inferred",
    where: "txpoolcfg.FeeTooLow",
  },
  {
    node: "erigon",
    class: "insufficient_funds",
    code: -32000,
    message: "insufficient funds",
    source: "inferred",
    where: "txpoolcfg.InsufficientFunds",
  },
  // Nethermind: AcceptTxResult names in the message, code -32010 (transaction rejected).
  {
    node: "nethermind",
    class: "already_known",
    code: -32010,
    message: "AlreadyKnown",
    source: "source",
    where: "AcceptTxResult.AlreadyKnown",
  },
  {
    node: "nethermind",
    class: "nonce_too_low",
    code: -32010,
    message: "OldNonce, Current nonce: 7, nonce of rejected tx: 5",
    source: "source",
    where: "AcceptTxResult.OldNonce",
  },
  {
    node: "nethermind",
    class: "nonce_too_high",
    code: -32010,
    message: "NonceGap, Future nonce. Expected nonce: 7",
    source: "source",
    where: "AcceptTxResult.NonceGap",
  },
  {
    node: "nethermind",
    class: "replacement_underpriced",
    code: -32010,
    message: "ReplacementNotAllowed",
    source: "source",
    where: "AcceptTxResult.ReplacementNotAllowed",
  },
  {
    node: "nethermind",
    class: "fee_below_base_fee",
    code: -32010,
    message: "FeeTooLow, MaxFeePerGas too low. MaxFeePerGas: 1, BaseFee: 7",
    source: "source",
    where: "AcceptTxResult.FeeTooLow",
  },
  {
    node: "nethermind",
    class: "underpriced",
    code: -32010,
    message: "FeeTooLowToCompete",
    source: "source",
    where: "AcceptTxResult.FeeTooLowToCompete",
  },
  {
    node: "nethermind",
    class: "insufficient_funds",
    code: -32010,
    message: "InsufficientFunds, Account balance: 0, cumulative cost: 21000",
    source: "source",
    where: "AcceptTxResult.InsufficientFunds",
  },
  {
    node: "nethermind",
    class: "exceeds_block_gas_limit",
    code: -32010,
    message: "GasLimitExceeded, Gas limit: 70000000, gas limit of rejected tx: 60000000",
    source: "source",
    where: "AcceptTxResult.GasLimitExceeded",
  },
  // Besu: TransactionInvalidReason through JsonRpcError.
  {
    node: "besu",
    class: "already_known",
    code: -32000,
    message: "Known transaction",
    source: "inferred",
    where: "JsonRpcError.ETH_SEND_TX_ALREADY_KNOWN",
  },
  {
    node: "besu",
    class: "nonce_too_low",
    code: -32001,
    message: "Nonce too low",
    source: "inferred",
    where: "JsonRpcError.NONCE_TOO_LOW",
  },
  {
    node: "besu",
    class: "replacement_underpriced",
    code: -32000,
    message: "Replacement transaction underpriced",
    source: "inferred",
    where: "JsonRpcError.ETH_SEND_TX_REPLACEMENT_UNDERPRICED",
  },
  {
    node: "besu",
    class: "fee_below_base_fee",
    code: -32009,
    message: "gasPrice is less than the current BaseFee",
    source: "inferred",
    where: "JsonRpcError.GAS_PRICE_BELOW_CURRENT_BASE_FEE",
  },
  {
    node: "besu",
    class: "underpriced",
    code: -32009,
    message: "Gas price below configured minimum gas price",
    source: "inferred",
    where: "JsonRpcError.GAS_PRICE_TOO_LOW",
  },
  {
    node: "besu",
    class: "insufficient_funds",
    code: -32004,
    message: "Upfront cost exceeds account balance",
    source: "inferred",
    where: "JsonRpcError.TRANSACTION_UPFRONT_COST_EXCEEDS_BALANCE",
  },
  {
    node: "besu",
    class: "intrinsic_gas_too_low",
    code: -32003,
    message: "Intrinsic gas exceeds gas limit",
    source: "inferred",
    where: "JsonRpcError.INTRINSIC_GAS_EXCEEDS_LIMIT",
  },
  {
    node: "besu",
    class: "exceeds_block_gas_limit",
    code: -32000,
    message: "Transaction gas limit exceeds block gas limit",
    source: "inferred",
    where: "JsonRpcError.EXCEEDS_BLOCK_GAS_LIMIT",
  },
  // Hosted providers in front of any node.
  {
    node: "provider",
    class: "rate_limited",
    code: 429,
    message: "Too Many Requests",
    source: "inferred",
    where: "HTTP 429",
  },
  {
    node: "provider",
    class: "rate_limited",
    code: -32005,
    message: "limit exceeded",
    source: "inferred",
    where: "EIP-1474 -32005",
  },
  {
    node: "provider",
    class: "rate_limited",
    code: 429,
    message: "Your app has exceeded its compute units per second capacity",
    source: "inferred",
    where: "a hosted provider's 429 body",
  },
];

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
