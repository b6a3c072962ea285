import { Address, ContractNameSchema, RoleNameSchema, withContractRole } from "../../primitives.js";
import { routeFamily } from "../../route.js";
import { UnsignedTx } from "../../tx.js";
import { success } from "../../envelope.js";
import { buildEnvelope } from "../build/common.js";
import { z } from "zod";

const roleInput = withContractRole(
  z.strictObject({ contract: ContractNameSchema, role: RoleNameSchema, account: Address }),
);

const tx = success(UnsignedTx);
const roleRoute = routeFamily({ tag: "roles", auth: "key", body: buildEnvelope(roleInput), response: tx });

export const grantRole = roleRoute({
  method: "put",
  path: "/api/v1/roles/grant",
  summary: "Build grantRole for the contract's admin (key)",
});

export const revokeRole = roleRoute({
  method: "delete",
  path: "/api/v1/roles/revoke",
  summary: "Build revokeRole for the contract's admin (key)",
});
