import type { routes } from "@points/schema";
import type { BuildHandler } from "../../../core/context.js";
import { target, programCall } from "../../../core/program/target.js";

/**
 * The Factory's settings (FactoryBase.sol): the redeem delay (MANAGER_ROLE), the fees and the
 * fee receiver (DEFAULT_ADMIN_ROLE). The schema bounds every input as the contract does; a
 * signer without the role is 403 MISSING_ROLE from the simulation, as on every build route.
 */
export const setRedeemDelay: BuildHandler<typeof routes.setRedeemDelay> = async ({ body }, ctx) =>
  programCall(await target(ctx, body.program), {
    contract: "factory",
    fn: "setRedeemDelay",
    args: [body.input.delay],
    from: body.key,
  });

export const setFees: BuildHandler<typeof routes.setFees> = async ({ body }, ctx) =>
  programCall(await target(ctx, body.program), {
    contract: "factory",
    fn: "setFees",
    args: [body.input.mintFeeBps, body.input.redeemFeeBps],
    from: body.key,
  });

export const setFeeReceiver: BuildHandler<typeof routes.setFeeReceiver> = async ({ body }, ctx) =>
  programCall(await target(ctx, body.program), {
    contract: "factory",
    fn: "setFeeReceiver",
    args: [body.input.feeReceiver],
    from: body.key,
  });
