import { z } from "zod";
import { Address } from "../../../primitives.js";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { ProposalParams } from "../../../safe.js";
import { UnsignedTx } from "../../../tx.js";

/** The unsigned execTransaction of an executable proposal, for `from` to sign and send. */
export const SafeExecTx = UnsignedTx.pick({
  tx: true,
  type: true,
  from: true,
  to: true,
  data: true,
  value: true,
  chainId: true,
  nonce: true,
  gas: true,
  maxFeePerGas: true,
  maxPriorityFeePerGas: true,
})
  .extend({
    safeTxHash: z.string(),
    signatures: z.string().meta({ description: "The owners' signatures in ascending owner order, as sent" }),
  })
  .meta({ id: "SafeExecTx" });

export const safeProposalExecute = defineRoute({
  method: "post",
  path: "/api/v1/safe/proposals/:proposalId/execute",
  summary:
    "Build the unsigned execTransaction of a proposal with threshold signatures of current owners at the Safe's next nonce, simulated from `from` (any owner or relayer)",
  tag: "safe",
  errors: ["CONFLICT"],
  auth: "key",
  params: ProposalParams,
  body: z.strictObject({ from: Address.meta({ description: "Account that will sign and send execTransaction" }) }),
  response: success(SafeExecTx),
});
