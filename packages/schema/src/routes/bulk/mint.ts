import { bulkBody, bulkRoute } from "./common.js";

export const bulkPspMint = bulkRoute(
  "mint",
  "Bulk mint: up to 10,000 rows validated at once, chunked under a gas ceiling into mintBatch transactions, each simulated (docs/rules.md#bulk-requests)",
  bulkBody({}),
);
