import { BRAND_PATTERN } from "@points/schema";
import type { Db } from "../db/db.js";
import { releasedFailedTask } from "../onboarding/tasks.js";

export interface BrandAvailability {
  brand: string;
  available: boolean;
  reason?: "invalid" | "program" | "task";
  message?: string;
}

/**
 * Whether a brand can be deployed on `chainId` (on every chain when null): it must follow the
 * brand rule, not be a registered program there, and not be claimed there by an onboarding
 * task. A failed task keeps its brand for its owner's retry for `retryWindowSeconds`, then no
 * longer (docs: packages/api/README.md#console-backend). The task table belongs to the
 * onboarding migration, so it is looked up only when it exists.
 */
export async function brandAvailability(
  db: Db,
  brand: string,
  chainId: string | null,
  retryWindowSeconds: number,
): Promise<BrandAvailability> {
  if (!BRAND_PATTERN.test(brand)) {
    return { brand, available: false, reason: "invalid", message: "must be 1-32 lowercase letters and digits" };
  }
  const onChain = chainId === null ? "" : " on this chain";
  const programs = await db.query(
    "SELECT 1 FROM programs WHERE brand = $1 AND ($2::text IS NULL OR chain_id = $2) LIMIT 1",
    [brand, chainId],
  );
  if (programs.length)
    return { brand, available: false, reason: "program", message: `a program with this brand exists${onChain}` };
  const [{ present }] = await db.query<{ present: boolean }>(
    "SELECT to_regclass('onboarding_tasks') IS NOT NULL AS present",
  );
  if (present) {
    const tasks = await db.query(
      `SELECT 1 FROM onboarding_tasks WHERE brand = $1 AND ($2::text IS NULL OR chain_id = $2)
         AND NOT ${releasedFailedTask("$3")} LIMIT 1`,
      [brand, chainId, retryWindowSeconds],
    );
    if (tasks.length) {
      return { brand, available: false, reason: "task", message: `a deployment of this brand is under way${onChain}` };
    }
  }
  return { brand, available: true };
}
