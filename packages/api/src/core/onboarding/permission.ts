import type { Caller } from "../auth/caller.js";
import { ownerOf } from "../auth/caller.js";
import type { Ctx } from "../context.js";
import { ApiError } from "../errors.js";
import { countUnlocked } from "./quota.js";

/** Whether the operator approved a console account: its e-mail domain, or the account itself. */
export async function accountApproved(ctx: Pick<Ctx, "config" | "console">, email: string): Promise<boolean> {
  const domain = email.slice(email.lastIndexOf("@") + 1);
  return ctx.config.deploy.approvedDomains.includes(domain) || (await ctx.console.users.deployApproved(email));
}

/**
 * A deploy spends the executor's gas, so it is a permission the operator grants: a key's
 * `deploy` scope is checked with the route; a console account needs the operator's approval
 * (or an approved e-mail domain).
 */
export async function requireDeployApproval(ctx: Ctx, caller: Caller): Promise<void> {
  if (caller.kind !== "session" || (await accountApproved(ctx, caller.email))) return;
  throw notApprovedToDeploy();
}

/** The refusal of a console account the operator has not approved, on a deploy route. */
export const notApprovedToDeploy = () =>
  new ApiError(
    "FORBIDDEN",
    "this account may not deploy yet: the operator must approve it (points-api accounts approve <email>)",
    { reason: "approval" },
  );

/**
 * The same count before any chain read, unlocked, so an owner over quota costs nothing; the
 * count that decides is {@link countUnderQuota}'s. A replay of an Idempotency-Key already used
 * creates nothing, so it is not counted.
 */
export async function requireDeployQuota(ctx: Ctx, caller: Caller, idempotencyKey?: string): Promise<void> {
  const owner = ownerOf(caller);
  if (owner === undefined) return;
  if (idempotencyKey !== undefined) {
    const prior = await ctx.db.query("SELECT 1 FROM onboarding_tasks WHERE owner = $1 AND idempotency_key = $2", [
      owner,
      idempotencyKey,
    ]);
    if (prior.length) return;
  }
  await countUnlocked(ctx.db, owner, ctx.config.deploy.quotaPerDay);
}
