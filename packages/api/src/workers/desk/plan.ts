import type { TransactionReceipt } from "ethers";
import { decodeRevert, revertData } from "../../core/chain/revert.js";
import { contract, read, type Target } from "../../core/program/target.js";

/** A request as the desk simulated it: its estimate, or why the chain would refuse it. */
export type Simulated = { requestId: string; gas: bigint } | { requestId: string; refused: string };

const INTRINSIC = 21_000n;
/**
 * Gas a batch needs whose requests were estimated at `sum` in total, each estimate less the
 * 21,000 intrinsic gas the batch pays once: x 64/63 (EIP-150: an inner call gets at most 63/64 of
 * what is left) plus a 25% margin. Measured on Hardhat: one request estimated alone at 138,514
 * gas, 50 in one batch used 2,014,996 gas (warm storage), so this errs high, never low.
 */
export const batchGas = (sum: bigint) => INTRINSIC + (sum * 64n * 5n + 63n * 4n - 1n) / (63n * 4n);
/** The part of a request's own estimate a batch adds. */
const inner = (gas: bigint) => (gas > INTRINSIC ? gas - INTRINSIC : 0n);

const describe = (data: string | undefined) => {
  const r = decodeRevert(data, "factory");
  if (!r) return data && data !== "0x" ? `revert ${data.slice(0, 74)}` : "reverted without a reason";
  const args = Object.entries(r.args).map(([k, v]) => `${k}: ${String(v)}`);
  return `${r.name}(${args.join(", ")})`;
};

/**
 * Simulates finalizeRedeem of each request as the executor would send it (one estimate each at
 * the pending block, batched by the provider). A revert is a refusal with its decoded reason;
 * any other failure (the node did not answer) throws, so the pass sends nothing.
 */
export async function simulate(t: Target, executor: string, ids: string[]): Promise<Simulated[]> {
  const factory = contract(t, "factory");
  return read(t, "factory", () =>
    Promise.all(
      ids.map(async (requestId): Promise<Simulated> => {
        const data = factory.interface.encodeFunctionData("finalizeRedeem", [requestId]);
        try {
          // At the pending block, not the node's default (often latest): a batch still unmined
          // (sent by a process that shut down since) has finalized its requests there, so
          // they are refused rather than sent again.
          const tx = { from: executor, to: t.program.factory, data };
          return { requestId, gas: BigInt(await t.chain.provider.send("eth_estimateGas", [tx, "pending"])) };
        } catch (e) {
          const d = revertData(e);
          if (d === undefined && !/revert/i.test(String((e as Error).message))) throw e;
          return { requestId, refused: describe(d) };
        }
      }),
    ),
  );
}

export interface Batch {
  ids: string[];
  gasLimit: bigint;
}

/**
 * Packs simulated requests, in order, into batches of at most `size` requests whose gas
 * (batchGas) stays within `cap`; stops before the total passes `budget`. A request that alone
 * needs more than `cap` is returned in `tooBig`.
 */
export function pack(ok: { requestId: string; gas: bigint }[], size: number, cap: bigint, budget: bigint) {
  const batches: Batch[] = [];
  const tooBig: { requestId: string; gas: bigint }[] = [];
  let ids: string[] = [];
  let sum = 0n;
  let total = 0n;
  const close = () => {
    if (ids.length) batches.push({ ids, gasLimit: batchGas(sum) });
    total += ids.length ? batchGas(sum) : 0n;
    ids = [];
    sum = 0n;
  };
  let overBudget = false;
  for (const r of ok) {
    const g = inner(r.gas);
    if (batchGas(g) > cap) {
      tooBig.push(r);
      continue;
    }
    if (ids.length === size || batchGas(sum + g) > cap) close();
    if (total + batchGas(sum + g) > budget) {
      overBudget = true;
      break;
    }
    ids.push(r.requestId);
    sum += g;
  }
  close();
  return { batches, tooBig, overBudget };
}

/** The requests a mined batch skipped (RedeemFinalizeSkipped in its receipt), with the chain's reason. */
export function skipped(t: Target, receipt: TransactionReceipt): Map<string, string> {
  const factory = contract(t, "factory");
  const out = new Map<string, string>();
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== t.program.factory.toLowerCase()) continue;
    const parsed = factory.interface.parseLog(log);
    if (parsed?.name !== "RedeemFinalizeSkipped") continue;
    out.set(String(parsed.args[0]), describe(parsed.args[1] as string));
  }
  return out;
}
