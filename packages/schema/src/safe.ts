import { z } from "zod";
import { Address, MAX_UINT256 } from "./primitives.js";

/** The EIP-712 types of a Safe v1.4.1 transaction (docs/architecture.md#safe-multisig). */
export { SAFE_TX_TYPES } from "@points/contracts/program";

const Decimal = z
  .string()
  .max(78)
  // abort: zod runs later checks after a failed one, and BigInt() throws on non-digits (a 500).
  .regex(/^(?:0|[1-9][0-9]{0,77})$/, { message: "must be a decimal integer", abort: true })
  .refine((v) => BigInt(v) <= MAX_UINT256, "must fit in uint256");
const Hex = z
  .string()
  .max(65_538)
  .regex(/^0x(?:[0-9a-fA-F]{2})*$/, "must be 0x-prefixed hex bytes");

/** The SafeTx struct an owner signs; integers as decimal strings. */
export const SafeTxFields = z.strictObject({
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

const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";

/**
 * The SafeTx the service stores: a plain call (no delegatecall) without gas refund, so nothing
 * a relayer could be paid from and no code run in the Safe's own context.
 */
export const ProposedSafeTx = SafeTxFields.extend({
  operation: z.literal(0).meta({ description: "0: a plain call (delegatecalls are not proposed)" }),
  baseGas: z.literal("0"),
  gasPrice: z.literal("0").meta({ description: "0: no gas refund from the Safe" }),
  gasToken: z.literal(ZERO_ADDRESS).meta({ format: "eip55-address" }),
  refundReceiver: z.literal(ZERO_ADDRESS).meta({ format: "eip55-address" }),
});
export type ProposedSafeTx = z.infer<typeof ProposedSafeTx>;

/**
 * A batch's SafeTx: a delegatecall (operation 1) to MultiSendCallOnly v1.4.1, which runs the
 * batch's calls in order from the Safe and cannot delegatecall further; no gas refund either.
 */
export const BatchSafeTx = ProposedSafeTx.extend({
  operation: z.literal(1).meta({ description: "1: a delegatecall to MultiSendCallOnly (a batch)" }),
});
export type BatchSafeTx = z.infer<typeof BatchSafeTx>;

/**
 * What the proposals store takes: a plain call, or a batch's delegatecall, which is accepted only
 * into a contract whose code is MultiSendCallOnly v1.4.1 (checked on chain, 400 otherwise).
 */
export const ProposalTx = ProposedSafeTx.extend({
  operation: z.union([z.literal(0), z.literal(1)]).meta({
    description:
      "0: a plain call; 1: a delegatecall, taken only into a contract whose code is MultiSendCallOnly v1.4.1 (a batch of POST /api/v1/safe/batch)",
  }),
});
export type ProposalTx = z.infer<typeof ProposalTx>;

/** The Safe transaction for the owners to sign (EIP-712) and its hash, of SafeTx schema `tx`. */
const safeTxAnswerOf = <T extends z.ZodType>(tx: T) =>
  z.object({
    address: Address.meta({ description: "The Safe (the call's `from` on chain)" }),
    version: z.string(),
    threshold: z.number().int().min(1),
    owners: z.array(Address),
    tx,
    typedData: z.object({
      domain: z.object({ chainId: z.string(), verifyingContract: Address }),
      types: z.object({
        SafeTx: z.array(z.object({ name: z.string(), type: z.string() })),
      }),
      primaryType: z.literal("SafeTx"),
      message: tx,
    }),
    safeTxHash: z.string().regex(/^0x[0-9a-f]{64}$/),
  });

/**
 * What a build route answers besides the plain call when its signer is a Safe: the Safe
 * transaction for the owners to sign (EIP-712) and its hash. The top-level `tx` is then not for
 * signing: the call runs through the Safe's execTransaction once enough owners signed.
 */
export const SafeTxAnswer = safeTxAnswerOf(ProposedSafeTx).meta({ id: "SafeTx" });
/** A batch's Safe transaction (a delegatecall to MultiSendCallOnly) for the owners to sign. */
export const SafeBatchTxAnswer = safeTxAnswerOf(BatchSafeTx).meta({ id: "SafeBatchTx" });
export type SafeTxAnswer = z.infer<typeof SafeTxAnswer>;
export type SafeBatchTxAnswer = z.infer<typeof SafeBatchTxAnswer>;

/** A 65-byte ECDSA signature (r, s, v), as `signTypedData` returns it. */
export const SafeSignature = z
  .string()
  .length(132)
  .regex(
    /^0x[0-9a-fA-F]{128}1[bBcC]$/,
    "must be a 65-byte ECDSA signature (0x + 130 hex digits) with v 27 or 28 (0x1b or 0x1c)",
  )
  .meta({
    description:
      "An owner's EIP-712 signature of the proposal's safeTxHash; contract, pre-approved and eth_sign signatures (other v) are not taken",
  });

export const PROPOSAL_STATUSES = ["pending", "executable", "executed", "replaced"] as const;

/**
 * A Safe transaction proposal as the service stores it, with its status worked out from the
 * chain when asked (docs/architecture.md#safe-multisig).
 */
export const SafeProposal = z
  .object({
    id: z.string(),
    chainId: z.string(),
    safe: Address,
    safeTxHash: z.string(),
    tx: SafeTxFields,
    status: z.enum(PROPOSAL_STATUSES).meta({
      description:
        "pending: nonce not yet used, signatures missing or an earlier nonce unused; executable: enough owners signed and the nonce is the Safe's next; executed: the Safe ran it; replaced: another transaction used its nonce",
    }),
    threshold: z.number().int(),
    owners: z.array(Address).meta({ description: "The Safe's owners now" }),
    signatures: z.array(z.object({ owner: Address, signature: z.string(), createdAt: z.string() })),
    missing: z.number().int().meta({ description: "Signatures of current owners still needed" }),
    createdAt: z.string(),
  })
  .meta({ id: "SafeProposal" });
export type SafeProposal = z.infer<typeof SafeProposal>;

export const ProposalParams = z.object({ proposalId: z.uuid("must be a proposal id (UUID)") });
