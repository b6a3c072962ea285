import type { routes } from "@points/schema";
import type { BuildHandler } from "../../../core/context.js";
import { requireRoleOn, roleHash } from "../../../core/chain/contracts.js";
import { target, programCall } from "../../../core/program/target.js";

/** grantRole / revokeRole for the contract's admin (`key`). DEFAULT_ADMIN_ROLE moves only by the two-step transfer. */
const roleTx =
  (fn: "grantRole" | "revokeRole"): BuildHandler<typeof routes.grantRole> =>
  async ({ body }, ctx) => {
    const { contract, role, account } = body.input;
    requireRoleOn(contract, role);
    return programCall(await target(ctx, body.program), {
      contract,
      fn,
      args: [roleHash(role), account],
      from: body.key,
    });
  };

export const grantRole = roleTx("grantRole");
export const revokeRole = roleTx("revokeRole");
