import type { Caller } from "../auth/caller.js";
import { ownerOf } from "../auth/caller.js";
import type { Ctx } from "../context.js";
import { ApiError } from "../errors.js";
import type { Queryable } from "../db/db.js";

/**
 * A deploy spends the executor's gas, so it is a permission the operator grants: a key's
 * `deploy` scope is checked with the route; a console account needs the operator's approval
 * (or an approved e-mail domain).
 */
export async function requireDeployApproval(ctx: Ctx, caller: Caller): Promise<void> {
  if (caller.kind !== "session") return;
  const domain = caller.email.slice(caller.email.lastIndexOf("@") + 1);
  if (ctx.config.deploy.approvedDomains.includes(domain)) return;
  if (await ctx.console.users.deployApproved(caller.email)) return;
  throw new ApiError(
    "FORBIDDEN",
    "this account may not deploy yet: the operator must approve it (points-api accounts approve <email>)",
    { reason: "approval" },
  );
}

/**
 * At most `quotaPerDay` deploy tasks per owner in any 24 hours, so one tenant cannot drain the
 * executor. Called inside the transaction that inserts the task, holding a lock per owner until
 * it commits: counted apart from the insert, 25 parallel deploys all passed a quota of 10.
 * (A replay of an Idempotency-Key already used creates nothing, so it is answered before this.)
 */
export async function countUnderQuota(tx: Queryable, owner: string, limit: number): Promise<void> {
  await tx.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [QUOTA_LOCK, owner]);
  await countUnlocked(tx, owner, limit);
}

async function countUnlocked(tx: Queryable, owner: string, limit: number): Promise<void> {
  const [{ n }] = await tx.query<{ n: number | string }>(
    "SELECT count(*) AS n FROM onboarding_tasks WHERE owner = $1 AND created_at > now() - interval '1 day'",
    [owner],
  );
  if (Number(n) >= limit) {
    throw new ApiError("RATE_LIMITED", `deploy quota reached: ${limit} deploys per 24 hours; try again later`, {
      reason: "quota",
      limit,
    });
  }
}

/** The advisory lock class of deploy quotas (the second key is the owner's hash). */
const QUOTA_LOCK = 0x71756f74; // "quot"

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
