import { z } from "zod";
import { RedeemRequestView } from "../../redeem/status.js";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { LedgerAt, NextCursor, pageQuery } from "../common.js";

const At = z.object({ blockNumber: z.number().int(), txHash: z.string(), time: z.string() });

export const LedgerRedemptionView = RedeemRequestView.pick({
  requestId: true,
  requester: true,
  asset: true,
  to: true,
  amount: true,
  expectedBasketMode: true,
})
  .extend({
    status: z.enum(["pending", "ready", "finalized", "cancelled", "rejected"]).meta({
      description: "ready: pending and its readyAt has passed (the requester may finalize)",
    }),
    readyAt: z.string().meta({
      description:
        "ISO time from which the requester may finalize: the request's block time plus the redeem delay in force when it was made, as Factory.redeemReadyAt answers (a later delay change does not move it)",
    }),
    requestedAt: At,
    closedAt: At.nullable(),
  })
  .meta({ id: "LedgerRedemption" });

export const ledgerRedemptions = defineRoute({
  method: "get",
  path: "/api/v1/ledger/redemptions",
  summary: "Redemption requests of the program, newest first, optionally of one status, from the ledger",
  tag: "ledger",
  auth: "key",
  query: pageQuery(
    z
      .string()
      .regex(/^[0-9]{1,78}$/, "must be a nextCursor from a previous answer (a request id)")
      .meta({ description: "The previous page's nextCursor: the page holds older requests only" }),
  ).extend({ status: z.enum(["pending", "ready", "finalized", "cancelled", "rejected"]).optional() }),
  response: success(z.object({ ...LedgerAt, requests: z.array(LedgerRedemptionView), nextCursor: NextCursor })),
});
