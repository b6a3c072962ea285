import { z } from "zod";
import { Address } from "../../../primitives.js";
import { OnboardingRequest } from "../../onboarding/deploy.js";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { ProposalTx, SafeProposal, SafeSignature } from "../../../safe.js";

export const safeProposalCreate = defineRoute({
  method: "post",
  path: "/api/v1/safe/proposals",
  summary:
    "Store a Safe transaction proposal (a build route's data.safe.tx, or a batch's): a plain call or a delegatecall to MultiSendCallOnly, without gas refund, optionally with the proposer's signature",
  tag: "safe",
  errors: ["CONFLICT"],
  auth: "key",
  status: 201,
  body: z.strictObject({
    // A configured chain's id as a JSON number, as the onboarding request takes it.
    chainId: OnboardingRequest.shape.chainId,
    safe: Address,
    tx: ProposalTx,
    signature: SafeSignature.optional(),
  }),
  response: success(SafeProposal),
});
