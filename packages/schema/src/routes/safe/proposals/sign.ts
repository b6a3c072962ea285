import { z } from "zod";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { ProposalParams, SafeProposal, SafeSignature } from "../../../safe.js";

export const safeProposalSign = defineRoute({
  method: "post",
  path: "/api/v1/safe/proposals/:proposalId/signatures",
  summary:
    "Add an owner's EIP-712 signature: it must recover to a current owner of the Safe, once per owner, while the nonce is unused",
  tag: "safe",
  errors: ["CONFLICT"],
  auth: "key",
  params: ProposalParams,
  body: z.strictObject({ signature: SafeSignature }),
  response: success(SafeProposal),
});
