import { getAddress } from "ethers";
import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { target } from "../../../core/program/target.js";
import { heldRoles, isSafe } from "../../../core/program/heldRoles.js";
import { requireReadable } from "../../../core/ledger/tenant.js";

/** The roles an address holds, from the chain; another tenant's program answers as an unknown one. */
export const rolesHeld: Handler<typeof routes.rolesHeld> = async ({ params, query, caller }, ctx) => {
  const t = await target(ctx, query.program);
  await requireReadable(ctx, t.program, caller, query.program);
  const [roles, safe] = await Promise.all([heldRoles(t, params.address), isSafe(t, params.address)]);
  return { program: t.program.id, chainId: t.program.chainId, address: getAddress(params.address), safe, roles };
};
