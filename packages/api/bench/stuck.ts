/**
 * `pnpm bench:stuck`: how soon a stuck transaction lands once the engine replaces it. On a
 * local node mining a block every BENCH_BLOCK_MS (1000) ms, BENCH_ROUNDS (20) times: the
 * next block's base fee is set to ten times what the engine offers (a fee spike), the engine
 * sends a transfer, which cannot be mined, and replaces it at its deadline (sent + replaceAfterBlocks) with bumped
 * fees. Prints the distribution of (mined block - deadline block); target: every one <= 3.
 */
import { JsonRpcProvider, Network, Wallet } from "ethers";
import { pino } from "pino";
import { DEV_KEYS, startNode } from "@points/testkit";
import { TxEngine } from "../src/core/engine/engine.js";
import type { FinalEvent, ReplacementEvent } from "../src/core/engine/inflight.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const BLOCK_MS = Number(process.env.BENCH_BLOCK_MS ?? 1000);
const REPLACE_AFTER = 3;
const TARGET = 3;

async function main() {
  const node = await startNode();
  await node.setAutomine(false);
  await node.provider.send("evm_setIntervalMining", [BLOCK_MS]);
  const provider = new JsonRpcProvider(node.url, Network.from(31337), { staticNetwork: true, cacheTimeout: -1 });
  const engine = new TxEngine(new Wallet(DEV_KEYS[7], provider), provider, {
    chainId: 31337,
    caps: { maxFeePerGas: 10n ** 14n, maxPriorityFeePerGas: 10n ** 11n },
    replaceAfterBlocks: REPLACE_AFTER,
    confirmations: 1,
    minBalance: 0n,
    pollMs: Math.floor(BLOCK_MS / 4),
    waitTimeoutMs: 120_000,
    logger: pino({ level: "silent" }),
  });
  const replaced = new Map<number, ReplacementEvent>();
  engine.on("replaced", (e: ReplacementEvent) => {
    if (!replaced.has(e.nonce)) replaced.set(e.nonce, e);
  });
  const lateness: number[] = [];
  try {
    for (let i = 0; i < ROUNDS; i++) {
      // The next block costs ten times what the engine offers now (twice the base fee plus the
      // tip): set before sending, so the transaction is stuck from its first block.
      const latest = await provider.send("eth_getBlockByNumber", ["latest", false]);
      const tip = BigInt(await provider.send("eth_maxPriorityFeePerGas", []));
      const spike = 10n * (2n * BigInt(latest.baseFeePerGas) + tip);
      await provider.send("hardhat_setNextBlockBaseFeePerGas", [`0x${spike.toString(16)}`]);
      const [{ nonce }] = await engine.sendBatch(
        1,
        async () => [{ to: "0x000000000000000000000000000000000000dEaD", value: 1n, gasLimit: 21_000n }],
        () => {},
      );
      const final = await new Promise<FinalEvent>((resolve) => {
        const onFinal = (f: FinalEvent) => {
          if (f.nonce !== nonce) return;
          engine.off("final", onFinal);
          resolve(f);
        };
        engine.on("final", onFinal);
      });
      const r = replaced.get(nonce);
      if (!r) {
        process.stderr.write(`round ${i + 1}: mined without a replacement (block ${final.blockNumber})\n`);
        await provider.send("hardhat_setNextBlockBaseFeePerGas", ["0x3b9aca00"]);
        continue;
      }
      lateness.push(final.blockNumber - r.deadlineBlock);
      // Back to a 1 gwei base fee, so every round starts from the same market.
      await provider.send("hardhat_setNextBlockBaseFeePerGas", ["0x3b9aca00"]);
      const next = (await provider.getBlockNumber()) + 1;
      while ((await provider.getBlockNumber()) < next) await new Promise((r) => setTimeout(r, 50));
      process.stderr.write(
        `round ${i + 1}: deadline ${r.deadlineBlock}, mined ${final.blockNumber}, versions ${final.versions}\n`,
      );
    }
  } finally {
    engine.stop();
    await node.stop();
  }
  const counts: Record<number, number> = {};
  for (const x of lateness) counts[x] = (counts[x] ?? 0) + 1;
  const worst = Math.max(...lateness);
  console.log(
    `\nStuck transactions replaced at their deadline (sent + ${REPLACE_AFTER} blocks), ${BLOCK_MS} ms blocks`,
  );
  console.log(`mined block - deadline block: ${JSON.stringify(counts)} over ${lateness.length} replaced transactions`);
  console.log(
    `${worst <= TARGET ? "PASS" : "MISS"}  worst ${worst} block(s) after the deadline (target: <= ${TARGET})`,
  );
  console.log(JSON.stringify({ blockMs: BLOCK_MS, replaceAfterBlocks: REPLACE_AFTER, lateness }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
