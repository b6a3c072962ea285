import assert from "node:assert/strict";
import { Contract, type EventLog, type JsonRpcProvider } from "ethers";
import { ProgramFactory__factory } from "@points/contracts";
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

/**
 * What the chain holds for `brands` on ProgramFactory `pf`: exactly one program per brand
 * (one ProgramDeployed event each, code at every predicted address) and `programCount` in all.
 */
export async function assertOneSetEach(provider: JsonRpcProvider, pf: string, brands: string[], programCount: number) {
  const factory = new Contract(pf, ProgramFactory__factory.abi, provider);
  assert.equal(await factory.programCount(), BigInt(programCount), "programCount");
  const events = await factory.queryFilter(factory.filters.ProgramDeployed(), 0);
  const byBrand = new Map<string, number>();
  for (const e of events as EventLog[]) byBrand.set(e.args.brand, (byBrand.get(e.args.brand) ?? 0) + 1);
  for (const brand of brands) {
    assert.equal(byBrand.get(brand), 1, `ProgramDeployed events of ${brand}`);
    const predicted = await factory.predictAddresses(brand);
    const onChain = await factory.programOf(brand);
    for (const k of ["points", "factory", "collateralVault", "pspVault"]) {
      assert.equal(onChain[k], predicted[k], `${brand}.${k} at its predicted address`);
      assert.notEqual(await provider.getCode(predicted[k]), "0x", `code at ${brand}.${k}`);
    }
  }
}

/** Every transaction hash a task view records, stage by stage. */
export const recordedTxs = (task: { stages: { transactions: { hash: string }[] }[] }) =>
  task.stages.flatMap((s) => s.transactions.map((t) => t.hash));

/** What an account holds on chain: a refused deploy must leave the executor's both as they were. */
export const holdings = async (provider: JsonRpcProvider, address: string) => ({
  nonce: await provider.getTransactionCount(address, "latest"),
  balance: await provider.getBalance(address),
});

/** Every transaction `from` sent, block by block (a nonce-count failure names what was sent). */
export async function sentBy(provider: JsonRpcProvider, from: string) {
  const out: string[] = [];
  const head = await provider.getBlockNumber();
  for (let b = 0; b <= head; b++) {
    const block = await provider.getBlock(b, true);
    for (const tx of block?.prefetchedTransactions ?? []) {
      if (tx.from.toLowerCase() !== from.toLowerCase()) continue;
      out.push(`block ${b} nonce ${tx.nonce} ${tx.hash} to ${tx.to ?? "(create)"} data ${tx.data.slice(0, 10)}`);
    }
  }
  return out.join("\n");
}
