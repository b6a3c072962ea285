import { getAddress } from "ethers";
import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { bulkPlan, type BulkOp } from "../../../core/bulk/plan.js";
import { checkBurn } from "../../../core/bulk/checks.js";

/** Bulk settlement of every row's pSP to one allowlisted receiver (docs/rules.md#bulk-requests). */
export const bulkPspSettle: Handler<typeof routes.bulkPspSettle> = ({ body }, ctx) => {
  const receiver = getAddress(body.settlementReceiver);
  const settle: BulkOp = {
    operation: "settle",
    fn: "settleBatch",
    args: (id, rows, metadata) => [
      { type: "address[]", value: rows.map((r) => r.address) },
      { type: "address[]", value: rows.map(() => receiver) },
      { type: "uint256[]", value: rows.map((r) => r.amount) },
      { type: "bytes32", value: id },
      { type: "string", value: metadata },
    ],
    check: (t, id, rows, from) => checkBurn(t, id, rows, receiver, from),
  };
  return bulkPlan(ctx, body, settle);
};
