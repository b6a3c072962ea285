import type { routes } from "@points/schema";
import type { Handler } from "../../../core/context.js";
import { ownerOf } from "../../../core/auth/caller.js";
import { DeskBounds } from "../../../core/desk/bounds.js";
import { target } from "../../../core/program/target.js";

/**
 * Sets one program's desk bounds (admin scope): the operator's answer to a tenant whose requests
 * cost more than the server's defaults allow, or to one it wants to stop (gas budget 0).
 */
export const operatorDeskBoundsSet: Handler<typeof routes.operatorDeskBoundsSet> = async (
  { params, body, caller },
  ctx,
) => {
  const { program } = await target(ctx, params.programId);
  const bounds = new DeskBounds(ctx.db, ctx.config.desk);
  await bounds.setOverrides(program.id, body, ownerOf(caller) ?? "operator");
  ctx.logger.info({ programId: program.id, ...body }, "desk bounds set by the operator");
  const { overrides, ...current } = await bounds.budget(program.id);
  return { programId: program.id, bounds: current, overrides };
};
