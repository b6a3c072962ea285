import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { bulkPlan, type BulkOp } from "../../../core/bulk/plan.js";
import { checkBurn } from "../../../core/bulk/checks.js";

const expire: BulkOp = {
  operation: "expire",
  fn: "expireBatch",
  args: (id, rows, metadata) => [
    { type: "address[]", value: rows.map((r) => r.address) },
    { type: "uint256[]", value: rows.map((r) => r.amount) },
    { type: "bytes32", value: id },
    { type: "string", value: metadata },
  ],
  check: (t, id, rows, from) => checkBurn(t, id, rows, undefined, from),
};

/** Bulk expiry back into the budget (docs/rules.md#bulk-requests). */
export const bulkPspExpire: Handler<typeof routes.bulkPspExpire> = ({ body }, ctx) => bulkPlan(ctx, body, expire);
