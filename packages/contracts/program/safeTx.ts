/**
 * The EIP-712 types of a Safe v1.3/v1.4 transaction, as the Safe contract hashes them: what each
 * owner signs for a program whose role sits in a Safe. One definition for the schema (proposal
 * routes), the API and the deployer.
 */
export const SAFE_TX_TYPES = {
  SafeTx: [
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "data", type: "bytes" },
    { name: "operation", type: "uint8" },
    { name: "safeTxGas", type: "uint256" },
    { name: "baseGas", type: "uint256" },
    { name: "gasPrice", type: "uint256" },
    { name: "gasToken", type: "address" },
    { name: "refundReceiver", type: "address" },
    { name: "nonce", type: "uint256" },
  ],
} as const;

/**
 * Safe 1.3/1.4's EIP-712 domain (chainId and verifyingContract, no name or version). Wallets
 * (eth_signTypedData_v4) hash the domain from this entry of `types`: without it they hash an
 * empty domain and the signature recovers to a non-owner.
 */
export const SAFE_DOMAIN_TYPE = [
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" },
] as const;

/** The types of a SafeTx as eth_signTypedData_v4 takes them: EIP712Domain, then SafeTx. */
export const SAFE_TYPED_DATA_TYPES = { EIP712Domain: SAFE_DOMAIN_TYPE, ...SAFE_TX_TYPES } as const;
