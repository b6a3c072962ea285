import { ApiError } from "../errors.js";
import type { Queryable } from "../db/db.js";

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

/** The count alone, without the lock: {@link countUnderQuota} holds it; a pre-check may not. */
export async function countUnlocked(tx: Queryable, owner: string, limit: number): Promise<void> {
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
