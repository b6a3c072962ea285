import { z } from "zod";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { WebhookParams } from "./common.js";

export const ledgerWebhookReplay = defineRoute({
  method: "post",
  path: "/api/v1/ledger/webhooks/:webhookId/replay",
  summary: "Queue again every matching event of a block range (deliveries keep their webhook-id)",
  tag: "ledger",
  auth: "key",
  params: WebhookParams,
  body: z
    .object({
      fromBlock: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
      toBlock: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    })
    .strict()
    .meta({ description: "An inclusive block range; toBlock below fromBlock is an empty range" }),
  response: success(z.object({ queued: z.number().int() })),
});
