import { Address } from "../../primitives.js";
import { bulkBody, bulkRoute } from "./common.js";

export const bulkPspSettle = bulkRoute(
  "settle",
  "Bulk settle: every row's pSP settled into SP sent to settlementReceiver, chunked into settleBatch transactions (docs/rules.md#bulk-requests)",
  bulkBody({
    settlementReceiver: Address.meta({
      description: "Receiver of every row's SP: on the campaign's settlement allowlist",
    }),
  }),
);
