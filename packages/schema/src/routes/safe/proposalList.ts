import { z } from "zod";
import { Address, ChainIdParam } from "../../primitives.js";
import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";
import { PROPOSAL_STATUSES, SafeProposal } from "../../safe.js";

export const safeProposalList = defineRoute({
  method: "get",
  path: "/api/v1/safe/proposals",
  summary: "The caller's Safe proposals (newest first), optionally of one chain, Safe or status",
  tag: "safe",
  auth: "key",
  query: z.object({
    chainId: ChainIdParam.optional(),
    safe: Address.optional(),
    status: z.enum(PROPOSAL_STATUSES).optional(),
  }),
  response: success(z.array(SafeProposal)),
});
