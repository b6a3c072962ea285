import { z } from "zod";
import { DESK_DECISIONS, DESK_POLICIES } from "@points/contracts/program";
import { Address, PathText, TrimmedText, Uint, UintText } from "../../primitives.js";
import { SafeSignature } from "../../safe.js";

/** The EIP-712 typed data a desk manager signs, defined once in `@points/contracts/program`. */
export { deskTypedData, type DeskTypedData } from "@points/contracts/program";

/**
 * The redemption desk of a program (docs/deployment.md#redemption-desk): how the service's
 * executor finalizes matured redemption requests. Changes and decisions are signed by a wallet
 * holding MANAGER_ROLE on the program's Factory (EIP-712, see {@link deskTypedData}).
 */
export const DeskPolicy = z.enum(DESK_POLICIES).meta({
  description:
    "automatic: the executor finalizes each request once its readyAt has passed, in batches; manual: it finalizes a request a manager approved; off: it does nothing",
});

export const DeskParams = z.object({ programId: PathText(100) });
export const DeskRequestParams = z.object({ programId: PathText(100), requestId: Uint });

/** What every signed desk instruction carries besides its own fields. */
export const DeskSigned = {
  manager: Address.meta({ description: "The wallet holding MANAGER_ROLE on the Factory that signed this instruction" }),
  signature: SafeSignature.meta({ description: "The manager's EIP-712 signature of the instruction (deskTypedData)" }),
  signedUntil: z
    .number()
    .int("must be a whole number of seconds")
    .min(1, "must be a positive unix time")
    .max(2 ** 40, "must be a unix time in seconds")
    .meta({ description: "Unix time (seconds) after which the signature is refused; at most one hour ahead" }),
};

export const DeskDecisionKind = z.enum(DESK_DECISIONS);
export const DeskReason = TrimmedText(200, false).meta({
  description: "Why, for the requester and the record (required to reject, at most 200 characters)",
});

export const DeskQueueEntry = z.object({
  requestId: UintText,
  requester: Address,
  asset: Address,
  to: Address,
  amount: UintText,
  readyAt: z.number(),
  ready: z.boolean().meta({ description: "readyAt has passed at the latest block" }),
  decision: z
    .object({
      decision: DeskDecisionKind,
      reason: z.string(),
      decidedBy: Address,
      status: z.enum(["queued", "sent", "failed"]),
      txHash: z.string().nullable(),
      error: z.string().nullable(),
    })
    .nullable(),
});

/** The desk's bounds of one program: the server's defaults unless the operator set its own. */
export const DeskBoundsView = z.object({
  minAmount: UintText.meta({
    description: "Smallest request (SP wei) the automatic desk finalizes; smaller ones wait for a manager",
  }),
  gasBudgetPerDay: UintText.meta({ description: "Gas the desk may spend on this program per UTC day" }),
  gasSpentToday: UintText.meta({ description: "Gas its transactions used since 00:00 UTC" }),
  pausedUntil: z.string().nullable().meta({
    description: "While the day's budget is spent: the next UTC midnight (ISO 8601), when the desk resumes; else null",
  }),
  reason: z.string().nullable().meta({ description: "Why the desk is paused; null when it is not" }),
});

export const DeskView = z.object({
  programId: z.string(),
  chainId: z.string(),
  factory: Address,
  policy: DeskPolicy,
  version: z.number().meta({ description: "Bumped on each policy change; a policy signature names the current one" }),
  executor: Address.nullable(),
  status: z.enum(["ready", "off", "executor_missing_role", "no_executor"]).meta({
    description:
      "ready: the executor holds EXECUTOR_ROLE and acts by the policy; executor_missing_role: grant EXECUTOR_ROLE on the Factory to the executor (nothing is sent until then); no_executor: this server has no executor key for the chain",
  }),
  waiting: z
    .object({ code: z.enum(["EXECUTOR_LOW_BALANCE"]), message: z.string() })
    .nullable()
    .meta({
      description:
        "Why the executor's transactions on this chain wait: EXECUTOR_LOW_BALANCE while it is below its balance threshold (sending resumes once it is funded); null when nothing waits",
    }),
  pending: z.array(DeskQueueEntry).meta({ description: "Pending requests, oldest first (at most 500)" }),
  bounds: DeskBoundsView.extend({
    held: z.array(z.object({ requestId: UintText, until: z.string(), reason: z.string() })).meta({
      description:
        "Pending requests simulation refused or a batch skipped, with the last reason; the desk simulates each again at `until` (backoff from 1 min doubling to 1 h, restarted when the request's state changes) and sends it only if the simulation passes",
    }),
  }).meta({ description: "The desk's bounds for this program (packages/api/README.md, Running in production)" }),
});
