import type { BulkPlan } from "@points/sdk";

/**
 * The built plan of a drop being sent, kept in this browser until every chunk is on chain, so a
 * reload or a failed chunk resumes with the same plan (its chunk tags and fromBlock are what the
 * SDK's landed-chunk check looks for; a plan built again later would not find earlier chunks).
 * Never in the URL: the plan holds rows and amounts.
 */
const key = (programId: string) => `points.console.bulk.${programId}`;

export function loadPlan(programId: string): BulkPlan | null {
  try {
    const text = window.localStorage.getItem(key(programId));
    return text ? (JSON.parse(text) as BulkPlan) : null;
  } catch {
    return null;
  }
}

export function savePlan(programId: string, plan: BulkPlan): void {
  window.localStorage.setItem(key(programId), JSON.stringify(plan));
}

export function clearPlan(programId: string): void {
  window.localStorage.removeItem(key(programId));
}
