import type { routes } from "@points/schema";
import type { BuildHandler } from "../../../core/context.js";
import { target, programCall } from "../../../core/program/target.js";

/** pause() needs PAUSER_ROLE; unpause() needs DEFAULT_ADMIN_ROLE. Every program contract is pausable. */
const freezeTx =
  (fn: "pause" | "unpause"): BuildHandler<typeof routes.pause> =>
  async ({ body }, ctx) =>
    programCall(await target(ctx, body.program), { contract: body.input.contract, fn, args: [], from: body.key });

export const pause = freezeTx("pause");
export const unpause = freezeTx("unpause");
