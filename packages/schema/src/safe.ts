import { z } from "zod";
import { Address } from "./primitives.js";

/** The EIP-712 types of a Safe v1.4.1 transaction (docs/architecture.md#safe-multisig). */
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

const Decimal = z.string().regex(/^(?:0|[1-9][0-9]*)$/);
const Hex = z.string().regex(/^0x(?:[0-9a-fA-F]{2})*$/);

/** The SafeTx struct an owner signs; integers as decimal strings. */
export const SafeTxFields = z.object({
  to: Address,
  value: Decimal,
  data: Hex,
  operation: z.union([z.literal(0), z.literal(1)]).meta({ description: "0 call, 1 delegatecall (MultiSend batches)" }),
  safeTxGas: Decimal,
  baseGas: Decimal,
  gasPrice: Decimal,
  gasToken: Address,
  refundReceiver: Address,
  nonce: Decimal,
});
export type SafeTxFields = z.infer<typeof SafeTxFields>;

/**
 * What a build route answers besides the plain call when its signer is a Safe: the Safe
 * transaction for the owners to sign (EIP-712) and its hash. The top-level `tx` is then not for
 * signing: the call runs through the Safe's execTransaction once enough owners signed.
 */
export const SafeTxAnswer = z
  .object({
    address: Address.meta({ description: "The Safe (the call's `from` on chain)" }),
    version: z.string(),
    threshold: z.number().int().min(1),
    owners: z.array(Address),
    tx: SafeTxFields,
    typedData: z.object({
      domain: z.object({ chainId: z.string(), verifyingContract: Address }),
      types: z.object({
        SafeTx: z.array(z.object({ name: z.string(), type: z.string() })),
      }),
      primaryType: z.literal("SafeTx"),
      message: SafeTxFields,
    }),
    safeTxHash: z.string().regex(/^0x[0-9a-f]{64}$/),
  })
  .meta({ id: "SafeTx" });
export type SafeTxAnswer = z.infer<typeof SafeTxAnswer>;
