import type { routes } from "@points/schema";
import type { Handler } from "../../context.js";
import { bulkPlan, type BulkOp } from "../../bulk/plan.js";
import { checkMint } from "../../bulk/checks.js";

const mint: BulkOp = {
  operation: "mint",
  fn: "mintBatch",
  args: (id, rows, metadata) => [id, rows.map((r) => r.address), rows.map((r) => r.amount), metadata],
  check: checkMint,
};

/** Bulk issuance (docs/rules.md#bulk-requests). */
export const bulkPspMint: Handler<typeof routes.bulkPspMint> = ({ body }, ctx) => bulkPlan(ctx, body, mint);
