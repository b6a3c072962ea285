import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { ProposalParams, SafeProposal } from "../../../safe.js";

export const safeProposalGet = defineRoute({
  method: "get",
  path: "/api/v1/safe/proposals/:proposalId",
  summary: "One of the caller's Safe proposals: status, signatures, what is missing",
  tag: "safe",
  auth: "key",
  params: ProposalParams,
  response: success(SafeProposal),
});
