import { z } from "zod";
import { Address, ContractNameSchema, RoleNameSchema } from "../../primitives.js";
import { defineRoute } from "../../route.js";
import { success } from "../../envelope.js";
import { ProgramQuery } from "../read/common.js";

export const checkRole = defineRoute({
  method: "get",
  path: "/api/v1/roles/check/:contract/:role/:address",
  summary: "Whether an address holds a role on a program contract",
  tag: "roles",
  auth: "open",
  params: z.object({ contract: ContractNameSchema, role: RoleNameSchema, address: Address }),
  query: ProgramQuery,
  response: success(
    z.object({
      contract: z.string(),
      contractAddress: Address,
      role: z.string(),
      address: Address,
      hasRole: z.boolean(),
    }),
  ),
});
