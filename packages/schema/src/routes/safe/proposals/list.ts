import { z } from "zod";
import { Address, ChainIdParam } from "../../../primitives.js";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { PROPOSAL_STATUSES, SafeProposal } from "../../../safe.js";
import { NextCursor } from "../../ledger/common.js";

/** Page size of the proposal list: each proposal's status is read from the chain. */
export const PROPOSAL_PAGE = { default: 20, max: 100 } as const;

export const safeProposalList = defineRoute({
  method: "get",
  path: "/api/v1/safe/proposals",
  summary:
    "The caller's Safe proposals (newest first), optionally of one chain, Safe or status, a page at a time (`limit`, `cursor`)",
  tag: "safe",
  auth: "key",
  errors: ["NOT_FOUND"],
  query: z.object({
    chainId: ChainIdParam.optional(),
    safe: Address.optional(),
    status: z.enum(PROPOSAL_STATUSES).optional().meta({
      description:
        "Keep only proposals of this status; applied to each page after paging, so a page may hold fewer than `limit` (follow `nextCursor` until null)",
    }),
    cursor: z
      .string()
      .regex(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
        "must be a nextCursor from a previous answer",
      )
      .optional()
      .meta({
        description:
          "The previous page's nextCursor (the id of its last proposal): the page holds older ones; 404 when it is not one of the caller's proposals",
      }),
    limit: z
      .string()
      .regex(/^(?:[1-9][0-9]?|100)$/, `must be a whole number from 1 to ${PROPOSAL_PAGE.max}`)
      .transform(Number)
      .optional()
      .meta({
        description: `Proposals per page, 1 to ${PROPOSAL_PAGE.max} (default ${PROPOSAL_PAGE.default})`,
        default: String(PROPOSAL_PAGE.default),
      }),
  }),
  response: success(z.object({ proposals: z.array(SafeProposal).max(PROPOSAL_PAGE.max), nextCursor: NextCursor })),
});
