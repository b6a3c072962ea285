import { Address, ContractNameSchema, RoleNameSchema, withContractRole } from "../primitives.js";
import { defineRoute } from "../route.js";
import { UnsignedTx } from "../tx.js";
import { success } from "../envelope.js";
import { buildEnvelope } from "./build.js";
import { z } from "zod";

const roleInput = withContractRole(
  z.strictObject({ contract: ContractNameSchema, role: RoleNameSchema, account: Address }),
);

const tx = success(UnsignedTx);

export const grantRole = defineRoute({
  method: "put",
  path: "/api/v1/roles/grant",
  summary: "Build grantRole for the contract's admin (key)",
  tag: "roles",
  auth: "key",
  body: buildEnvelope(roleInput),
  response: tx,
});

export const revokeRole = defineRoute({
  method: "delete",
  path: "/api/v1/roles/revoke",
  summary: "Build revokeRole for the contract's admin (key)",
  tag: "roles",
  auth: "key",
  body: buildEnvelope(roleInput),
  response: tx,
});

export const pause = defineRoute({
  method: "post",
  path: "/api/v1/freeze/pause",
  summary: "Build pause() for a pauser (key)",
  tag: "freeze",
  auth: "key",
  body: buildEnvelope(z.strictObject({ contract: ContractNameSchema })),
  response: tx,
});

export const unpause = defineRoute({
  method: "post",
  path: "/api/v1/freeze/unpause",
  summary: "Build unpause() for the contract's admin (key)",
  tag: "freeze",
  auth: "key",
  body: buildEnvelope(z.strictObject({ contract: ContractNameSchema })),
  response: tx,
});
