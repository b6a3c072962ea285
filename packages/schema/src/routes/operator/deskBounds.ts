import { z } from "zod";
import { Amount, UintText } from "../../primitives.js";
import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";
import { DeskBoundsView, DeskParams } from "../desk/common.js";

/** What the operator set for one program; null: the server's default (DESK_MIN_REDEEM_AMOUNT, DESK_GAS_BUDGET_PER_DAY). */
export const DeskOverrides = z.object({
  minAmount: UintText.nullable(),
  gasBudgetPerDay: UintText.nullable(),
});

export const operatorDeskBoundsSet = defineRoute({
  method: "put",
  path: "/api/v1/operator/programs/:programId/redemption-desk/bounds",
  summary:
    "Operator: one program's redemption desk bounds (admin key): its smallest automatic request and its gas per UTC day; null restores the server's default",
  tag: "operator",
  auth: "key",
  params: DeskParams,
  body: z.strictObject({
    minAmount: Amount.nullable().meta({
      description:
        "Smallest request (SP wei) the automatic desk finalizes for this program; smaller ones wait for a manager. null: DESK_MIN_REDEEM_AMOUNT",
    }),
    gasBudgetPerDay: Amount.nullable().meta({
      description:
        "Gas the desk may spend on this program per UTC day; 0 stops the automatic desk for it. null: DESK_GAS_BUDGET_PER_DAY",
    }),
  }),
  response: success(
    z.object({
      programId: z.string(),
      bounds: DeskBoundsView.meta({ description: "The bounds now in force, as GET .../redemption-desk shows them" }),
      overrides: DeskOverrides,
    }),
  ),
});
