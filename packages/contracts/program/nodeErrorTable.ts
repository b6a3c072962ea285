import type { SendErrorClass } from "./sendErrorClass.js";

/**
 * Every node's refusals of `eth_sendRawTransaction` known to this repository, one row each, with where the text comes
 * from; `classifySendError` (nodeErrors.ts) maps each to its class, and a test checks every row.
 */
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
