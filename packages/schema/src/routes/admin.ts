import { Address, ContractNameSchema, RoleNameSchema } from "../primitives.js";
import { defineRoute } from "../route.js";
import { UnsignedTx } from "../tx.js";
import { success } from "../envelope.js";
import { buildBody } from "./build.js";

const tx = success(UnsignedTx);

export const grantRole = defineRoute({
  method: "put",
  path: "/api/v1/roles/grant",
  summary: "Build grantRole for the contract's admin (key)",
  tag: "roles",
  auth: "key",
  body: buildBody({ contract: ContractNameSchema, role: RoleNameSchema, account: Address }),
  response: tx,
});

export const revokeRole = defineRoute({
  method: "delete",
  path: "/api/v1/roles/revoke",
  summary: "Build revokeRole for the contract's admin (key)",
  tag: "roles",
  auth: "key",
  body: buildBody({ contract: ContractNameSchema, role: RoleNameSchema, account: Address }),
  response: tx,
});

export const pause = defineRoute({
  method: "post",
  path: "/api/v1/freeze/pause",
  summary: "Build pause() for a pauser (key)",
  tag: "freeze",
  auth: "key",
  body: buildBody({ contract: ContractNameSchema }),
  response: tx,
});

export const unpause = defineRoute({
  method: "post",
  path: "/api/v1/freeze/unpause",
  summary: "Build unpause() for the contract's admin (key)",
  tag: "freeze",
  auth: "key",
  body: buildBody({ contract: ContractNameSchema }),
  response: tx,
});
