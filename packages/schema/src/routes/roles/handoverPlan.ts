import { z } from "zod";
import { Address } from "../../primitives.js";
import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";
import { UnsignedTx } from "../../tx.js";
import { buildEnvelope } from "../build/common.js";
import { HANDOVER_CONTRACTS } from "./handover.js";
import { SafeBatch } from "../safe/batch.js";
import { HeldRole } from "./held.js";

/**
 * The whole begin step of a DEFAULT_ADMIN_ROLE handover for the current admin (`key`): begin on
 * the four contracts and, when asked, revoke every other role `key` holds on them, in one answer
 * (docs/deployment.md#admin-handover). A Safe admin gets one MultiSendCallOnly batch to propose;
 * a wallet gets the transactions in order, with consecutive nonces.
 */
export const adminHandoverPlan = defineRoute({
  method: "post",
  path: "/api/v1/roles/admin-handover/plan",
  summary:
    "Build the begin step of a handover of the four contracts for their admin (key), with the revocation of the other roles key holds on them: one Safe batch for a Safe, ordered transactions for a wallet",
  tag: "roles",
  auth: "key",
  errors: ["CONFLICT", "MISSING_ROLE", "WOULD_REVERT"],
  body: buildEnvelope(
    z.strictObject({
      newAdmin: Address.meta({ description: "The next admin of the four contracts: a wallet or a Safe" }),
      revokeOtherRoles: z.boolean().optional().meta({
        description:
          "Also revoke every role other than DEFAULT_ADMIN_ROLE that key holds on the four contracts (default false). DEFAULT_ADMIN_ROLE itself leaves key when the new admin accepts.",
      }),
      multiSendCallOnly: Address.optional().meta({
        description:
          "For a Safe admin: MultiSendCallOnly v1.4.1 address (default: its canonical deployment); its code is checked on chain",
      }),
    }),
  ),
  response: success(
    z.object({
      program: z.string(),
      chainId: z.string(),
      admin: Address.meta({ description: "The current admin (key)" }),
      newAdmin: Address,
      held: z
        .array(HeldRole)
        .meta({ description: "Every role key holds on the program's contracts before the handover" }),
      actions: z
        .array(
          z.object({
            route: z.enum(["adminHandoverBegin", "revokeRole"]),
            contract: z.enum(HANDOVER_CONTRACTS),
            role: z.string(),
          }),
        )
        .meta({ description: "The calls in order: the four begins, then the revocations" }),
      batch: SafeBatch.optional().meta({ description: "Present when key is a Safe: propose batch.safe.tx" }),
      transactions: z
        .array(UnsignedTx)
        .optional()
        .meta({ description: "Present when key is a wallet: sign and send them in order (consecutive nonces)" }),
    }),
  ),
});
