import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { bulkPlan, type BulkOp } from "../../../core/bulk/plan.js";
import { checkMint, mintProbe } from "../../../core/bulk/checks.js";

const mint: BulkOp = {
  operation: "mint",
  fn: "mintBatch",
  args: (id, rows, metadata) => [
    { type: "bytes32", value: id },
    { type: "address[]", value: rows.map((r) => r.address) },
    { type: "uint256[]", value: rows.map((r) => r.amount) },
    { type: "string", value: metadata },
  ],
  check: checkMint,
  probe: mintProbe,
};

/** Bulk issuance (docs/rules.md#bulk-requests). */
export const bulkPspMint: Handler<typeof routes.bulkPspMint> = ({ body }, ctx) => bulkPlan(ctx, body, mint);
