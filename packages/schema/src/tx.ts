import { z } from "zod";
import { Address, CONTRACT_NAMES, ProgramRef } from "./primitives.js";
import { SafeTxAnswer } from "./safe.js";

/**
 * An explicit nonce for a build route: the transaction is built with it instead of the
 * signer's next pending nonce, so a client that queues its own transactions decides the order.
 */
export const TxNonce = z
  .number()
  .int()
  .min(0)
  .max(Number.MAX_SAFE_INTEGER)
  .optional()
  .meta({ description: "Nonce to build with (default: the signer's next pending nonce)" });

/** How a campaign id given as input was turned into bytes32. */
export const CampaignIdResolution = z.object({
  value: z.string().meta({ description: "The bytes32 used on chain" }),
  source: z.enum(["hex", "label"]),
  label: z.string().optional(),
});

/**
 * An unsigned EIP-1559 transaction. `tx` is base64 of ethers' `unsignedSerialized`
 * (0x02 || rlp([chainId, nonce, maxPriorityFeePerGas, maxFeePerGas, gas, to, value, data, accessList]));
 * the other fields are the same values decoded, for clients that build their own envelope.
 */
export const UnsignedTx = z
  .object({
    tx: z.string().meta({ description: "base64 of the EIP-2718 type-2 unsigned serialization" }),
    type: z.literal(2),
    from: Address,
    to: Address,
    data: z.string(),
    value: z.string(),
    chainId: z.string(),
    nonce: z.number().int(),
    gas: z.string(),
    maxFeePerGas: z.string(),
    maxPriorityFeePerGas: z.string(),
    call: z.object({
      contract: z.enum([...CONTRACT_NAMES, "asset"]),
      function: z.string(),
      args: z.array(z.unknown()),
    }),
    program: z.object({ id: z.string(), chainId: z.string(), factory: Address }),
    campaignId: CampaignIdResolution.optional(),
    expectedBasketMode: z.boolean().optional(),
    safe: SafeTxAnswer.optional().meta({
      description:
        "Present when the signer is a Safe: its owners sign safe.typedData (EIP-712) and the Safe runs the call through execTransaction; do not sign tx",
    }),
  })
  .meta({ id: "UnsignedTx" });
export type UnsignedTx = z.infer<typeof UnsignedTx>;

/** Whether a route builds an unsigned transaction (its success `data` is an UnsignedTx). */
export const isBuildRoute = (route: { response: z.ZodType }): boolean =>
  (route.response as unknown as { shape?: { data?: unknown } }).shape?.data === UnsignedTx;

/** Flat body of /studio/sdk/v1 routes: the SDK call's arguments plus the signer `from`. */
export const studioBody = <T extends z.ZodRawShape>(fields: T) =>
  z.strictObject({
    ...fields,
    from: Address.meta({ description: "Signer of the transaction" }),
    program: ProgramRef,
    nonce: TxNonce,
  });
