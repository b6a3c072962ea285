import { z } from "zod";
import { Address } from "../../../primitives.js";
import { defineRoute } from "../../../route.js";
import { success } from "../../../envelope.js";
import { LedgerQuery, LedgerAt } from "../common.js";

export const ledgerRoles = defineRoute({
  method: "get",
  path: "/api/v1/ledger/roles",
  summary: "Role holders of every program contract now, from the ledger",
  tag: "ledger",
  auth: "key",
  query: LedgerQuery,
  response: success(
    z.object({
      ...LedgerAt,
      contracts: z.array(
        z.object({
          contract: z.enum(["points", "factory", "collateralVault", "pspVault", "oracle"]),
          address: Address,
          roles: z.array(
            z.object({
              role: z
                .string()
                .meta({ description: "The role's name (MANAGER_ROLE...), or its hash when not a program role" }),
              holders: z.array(Address),
            }),
          ),
        }),
      ),
    }),
  ),
});
