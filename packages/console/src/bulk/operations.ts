import type { PointsClient, BulkPlan } from "@points/sdk";
import type { ContractName } from "@points/schema";

export type Operation = BulkPlan["operation"];

/** The three bulk operations as the page names them, with the verb of their progress. */
export const OPERATIONS: { value: Operation; label: string; verb: string }[] = [
  { value: "mint", label: "Issue pSP", verb: "issued" },
  { value: "settle", label: "Settle pSP to SP", verb: "settled" },
  { value: "expire", label: "Expire pSP into the budget", verb: "expired" },
];

/**
 * The contracts a drop goes through that refuse while paused (`whenNotPaused`): every batch is a
 * Campaign vault call, and a settlement also pays SP out, which the Points token stops.
 */
export const bulkNeeds = (operation: Operation): ContractName[] =>
  operation === "settle" ? ["pspVault", "points"] : ["pspVault"];

export interface BulkInput {
  operation: Operation;
  campaignId: string;
  csv: string;
  /** settle only: the receiver of every row's SP. */
  receiver: string;
  from: string;
}

/** One bulk request through the SDK (docs/rules.md#bulk-requests): a dry run or the plan to sign. */
export function requestPlan(client: PointsClient, input: BulkInput, dryRun: boolean): Promise<BulkPlan> {
  const body = { campaignId: input.campaignId, recipients: input.csv, from: input.from, dryRun };
  if (input.operation === "settle") return client.bulk.settle({ ...body, settlementReceiver: input.receiver.trim() });
  return input.operation === "mint" ? client.bulk.mint(body) : client.bulk.expire(body);
}
