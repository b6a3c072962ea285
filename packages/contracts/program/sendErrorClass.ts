// Apart from nodeErrors.ts so that nodeErrorTable.ts (which nodeErrors.ts re-exports) can use
// the type without importing nodeErrors.ts back.
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
