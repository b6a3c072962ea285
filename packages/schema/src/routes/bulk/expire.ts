import { bulkBody, bulkRoute } from "./common.js";

export const bulkPspExpire = bulkRoute(
  "expire",
  "Bulk expire: every row's pSP back into the budget, chunked into expireBatch transactions (docs/rules.md#bulk-requests)",
  bulkBody({}),
);
