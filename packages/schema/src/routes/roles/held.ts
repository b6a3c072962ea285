import { z } from "zod";
import { Address, ContractNameSchema } from "../../primitives.js";
import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";
import { ProgramQuery } from "../read/common.js";

/** One role an account holds on one program contract. */
export const HeldRole = z
  .object({
    contract: ContractNameSchema,
    contractAddress: Address,
    role: z.string().meta({ description: "The role's name (DEFAULT_ADMIN_ROLE, MANAGER_ROLE...)" }),
  })
  .meta({ id: "HeldRole" });

/**
 * Every role an account holds on the program's contracts, read from the chain: before a handover
 * it lists what the old admin wallet keeps unless revoked (docs/deployment.md#admin-handover).
 */
export const rolesHeld = defineRoute({
  method: "get",
  path: "/api/v1/roles/held/:address",
  summary:
    "Every role an address holds on the program's contracts, read from the chain (a program of another tenant is 404)",
  tag: "roles",
  auth: "key",
  params: z.object({ address: Address }),
  query: ProgramQuery,
  response: success(
    z.object({
      program: z.string(),
      chainId: z.string(),
      address: Address,
      safe: z.boolean().meta({ description: "Whether the address is a Safe (1.3.x or 1.4.x) on the program's chain" }),
      roles: z.array(HeldRole),
    }),
  ),
});
