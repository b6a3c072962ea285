import { BRAND_PATTERN } from "@points/schema";
import type { Db } from "../db/db.js";

export interface BrandAvailability {
  brand: string;
  available: boolean;
  reason?: "invalid" | "program" | "task";
  message?: string;
}

/**
 * Whether a brand can be deployed: it must follow the brand rule, not be a registered program,
 * and not be claimed by an onboarding task (any status: a failed task is retried under the
 * same brand). The task table belongs to the onboarding migration, so it is looked up only
 * when it exists.
 */
export async function brandAvailability(db: Db, brand: string): Promise<BrandAvailability> {
  if (!BRAND_PATTERN.test(brand)) {
    return { brand, available: false, reason: "invalid", message: "must be 1-32 lowercase letters and digits" };
  }
  const programs = await db.query("SELECT 1 FROM programs WHERE brand = $1 OR id = $1 LIMIT 1", [brand]);
  if (programs.length)
    return { brand, available: false, reason: "program", message: "a program with this brand exists" };
  const [{ present }] = await db.query<{ present: boolean }>(
    "SELECT to_regclass('onboarding_tasks') IS NOT NULL AS present",
  );
  if (present) {
    const tasks = await db.query("SELECT 1 FROM onboarding_tasks WHERE brand = $1 LIMIT 1", [brand]);
    if (tasks.length) {
      return { brand, available: false, reason: "task", message: "a deployment of this brand is under way" };
    }
  }
  return { brand, available: true };
}
