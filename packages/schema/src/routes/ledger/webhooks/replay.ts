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
    .refine((b) => b.toBlock >= b.fromBlock, { message: "toBlock must not be below fromBlock", path: ["toBlock"] })
    .refine((b) => b.toBlock - b.fromBlock <= 100_000, {
      message: "at most 100,000 blocks per replay",
      path: ["toBlock"],
    }),
  response: success(z.object({ queued: z.number().int() })),
});
