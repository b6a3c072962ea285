import { Contract, JsonRpcProvider, Network, Transaction, ZeroAddress } from "ethers";
import { Factory__factory, MockStablecoin__factory, PSPVault__factory, Points__factory } from "@points/contracts";
import type { NewProgram } from "../src/index.js";

/**
 * The same work as the API's routes, done directly with ethers 6 by a careful client:
 * Contract objects created once, the chain id static, independent calls issued together
 * (ethers batches them), nothing cached across operations. ethers' 250 ms replay cache is off
 * (as in the API), so each operation really reaches the node.
 */
export function baselineClient(nodeUrl: string, program: NewProgram) {
  const provider = new JsonRpcProvider(nodeUrl, Network.from(31337), { staticNetwork: true, cacheTimeout: -1 });
  const vault = new Contract(program.pspVault, PSPVault__factory.abi, provider);
  const factory = new Contract(program.factory, Factory__factory.abi, provider);
  const points = new Contract(program.points, Points__factory.abi, provider);
  const erc20 = (a: string) => new Contract(a, MockStablecoin__factory.abi, provider);

  /** (1') populate the mint call, estimate as the signer, pending nonce, fee data, serialize. */
  async function buildPspMint(from: string, campaignId: string, to: string, amount: bigint): Promise<string> {
    const call = await vault.mint.populateTransaction(campaignId, to, amount, "");
    const [estimate, nonce, fees] = await Promise.all([
      provider.estimateGas({ ...call, from }),
      provider.getTransactionCount(from, "pending"),
      provider.getFeeData(),
    ]);
    return Transaction.from({
      type: 2,
      chainId: 31337n,
      nonce,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      gasLimit: (estimate * 120n + 99n) / 100n,
      to: call.to,
      data: call.data,
      value: 0n,
    }).unsignedSerialized;
  }

  /** (2') the plain reads of the factory-state route, at one block. */
  async function readFactoryState() {
    const [blockTag, assets, oracle] = await Promise.all([
      provider.getBlockNumber(),
      factory.assets() as Promise<string[]>,
      factory.oracle() as Promise<string>,
    ]);
    const at = { blockTag };
    const [state, views] = await Promise.all([
      Promise.all([
        factory.paused(at),
        factory.isBasketMode(at),
        factory.basketModeForced(at),
        factory.mintFeeBps(at),
        factory.redeemFeeBps(at),
        factory.feeReceiver(at),
        factory.redeemDelay(at),
        factory.redeemRequestCount(at),
        points.totalSupply(at),
        points.paused(at),
        points.transferRestricted(at),
      ]),
      Promise.all(
        assets.map(async (asset) => {
          const token = erc20(asset);
          const [vaultAddr, decimals, symbol] = await Promise.all([
            factory.vaultOf(asset, at),
            token.decimals(at),
            token.symbol(at),
          ]);
          return { vaultAddr, decimals, symbol, collateral: await token.balanceOf(vaultAddr, at) };
        }),
      ),
    ]);
    return { state, views, oracle: oracle === ZeroAddress ? null : oracle };
  }

  return { provider, buildPspMint, readFactoryState };
}

export interface Figures {
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;

/** `workers` concurrent loops running `op` for `seconds`; latency of each operation in ms. */
export async function runWorkers(op: () => Promise<unknown>, workers: number, seconds: number): Promise<Figures> {
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const deadline = start + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        try {
          await op();
          latencies.push(performance.now() - t0);
        } catch {
          errors++;
        }
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
  };
}
