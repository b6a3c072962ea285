import { Address, ContractNameSchema, RoleNameSchema, withContractRole } from "../primitives.js";
import { defineRoute, routeFamily } from "../route.js";
import { UnsignedTx } from "../tx.js";
import { success } from "../envelope.js";
import { buildEnvelope } from "./build.js";
import { z } from "zod";

const roleInput = withContractRole(
  z.strictObject({ contract: ContractNameSchema, role: RoleNameSchema, account: Address }),
);

const tx = success(UnsignedTx);
const freezeRoute = routeFamily({
  method: "post",
  tag: "freeze",
  auth: "key",
  body: buildEnvelope(z.strictObject({ contract: ContractNameSchema })),
  response: tx,
});
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

export const pause = freezeRoute({
  path: "/api/v1/freeze/pause",
  summary: "Build pause() for a pauser (key)",
});

export const unpause = freezeRoute({
  path: "/api/v1/freeze/unpause",
  summary: "Build unpause() for the contract's admin (key)",
});
