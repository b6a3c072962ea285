import assert from "node:assert/strict";
import type { TestApi } from "./service.js";

/** A valid onboarding request for `brand`, owned by `deployer` (the brand wallet). */
export function onboardingBody(brand: string, deployer: string, overrides: Record<string, unknown> = {}) {
  return {
    brand,
    organization: { name: "Acme Inc.", website: "https://acme.example", description: "Coffee shops" },
    chainId: 31337,
    token: {
      name: "Acme Points",
      symbol: "ACME",
      description: "Points for coffee",
      logoUrl: "https://acme.example/logo.png",
      websiteUrl: "https://acme.example/points",
    },
    deployer,
    ...overrides,
  };
}

/** Polls a task until it leaves queued/running (or `timeoutMs` passes). */
export async function waitForTask(api: TestApi, taskId: string, auth: Record<string, string>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.call("GET", `/v1/client-onboarding/tasks/${taskId}`, undefined, auth);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const task = res.body.data;
    if (task.status === "succeeded" || task.status === "failed") return task;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still ${task.status}: ${JSON.stringify(task.stages)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
