import { after, before, beforeEach } from "node:test";
import { JsonRpcProvider, Network, Wallet } from "ethers";
import { pino } from "pino";
import { DEV_KEYS, startFaultProxy, startNode, type DevNode, type FaultProxy } from "@points/testkit";
import { TxEngine, type EngineOptions } from "../../src/core/engine/engine.js";
import type { FinalEvent, ReplacementEvent } from "../../src/core/engine/inflight.js";

/** A provider that never caches (the engine reads nonces right after sending). */
export function rawProvider(url: string): JsonRpcProvider {
  return new JsonRpcProvider(url, Network.from(31337), { staticNetwork: true, cacheTimeout: -1 });
}

/** An engine for dev account `keyIndex` on `url`, with fast polling and the events it emits recorded. */
export function testEngine(url: string, keyIndex: number, opts: Partial<EngineOptions> = {}) {
  const provider = rawProvider(url);
  const wallet = new Wallet(DEV_KEYS[keyIndex], provider);
  const engine = new TxEngine(wallet, provider, {
    chainId: 31337,
    caps: { maxFeePerGas: 10n ** 15n, maxPriorityFeePerGas: 10n ** 11n },
    replaceAfterBlocks: 2,
    confirmations: 1,
    minBalance: 0n,
    pollMs: 40,
    waitTimeoutMs: 60_000,
    logger: pino({ level: "silent" }),
    ...opts,
  });
  const replaced: ReplacementEvent[] = [];
  const finals: FinalEvent[] = [];
  engine.on("replaced", (e: ReplacementEvent) => replaced.push(e));
  engine.on("final", (e: FinalEvent) => finals.push(e));
  return { engine, wallet, replaced, finals };
}

/** Sends `n` plain value transfers through `engine`, one batch each, recording every hash the engine reports. */
export async function sendTransfers(engine: TxEngine, to: string, n: number) {
  const hashes = new Map<number, string[]>();
  const sent = await Promise.all(
    Array.from({ length: n }, () =>
      engine.sendBatch(
        1,
        async () => [{ to, value: 1n, gasLimit: 21_000n }],
        (_, hash, nonce) => void hashes.set(nonce, [...(hashes.get(nonce) ?? []), hash]),
      ),
    ),
  );
  return { nonces: sent.map(([s]) => s.nonce), hashes };
}

/** Polls `check` every 20 ms until it is true (or fails after `ms`). */
export async function until(check: () => Promise<boolean> | boolean, ms = 20_000, what = "condition"): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * The hooks of an engine suite: a Hardhat node with automine off (the test mines) and the
 * testkit's fault proxy in front of it; before each test the faults are cleared and `key`
 * moves to the next dev account, so tests do not share nonces.
 */
export function engineSuite() {
  const t = {
    node: undefined as unknown as DevNode,
    proxy: undefined as unknown as FaultProxy,
    key: 0,
    mine: (n = 1) => t.node.mine(n),
    nonceOf: (a: string) => t.node.provider.getTransactionCount(a, "latest"),
  };
  before(async () => {
    t.node = await startNode();
    await t.node.setAutomine(false);
    t.proxy = await startFaultProxy(t.node.url);
  });
  after(async () => {
    await t.proxy?.close();
    await t.node?.stop();
  });
  beforeEach(() => {
    t.proxy.faults = { dropSends: 0, tooManyRequests: 0, delayMs: 0, down: false };
    t.proxy.dropped.length = 0;
    t.key = (t.key + 1) % 10;
  });
  return t;
}
