/**
 * The deployment benchmark's three runs, on one node, in this order:
 *   (b) a chain's first program, release included   (the library, fresh chain)
 *   (a) a program on a chain that has a release      (the library)
 *   (c) the naive way: OpenZeppelin deployProxy per contract + wiring and role transactions
 *       (packages/contracts/bench/naiveDeploy.ts, run by Hardhat against the same node)
 * Gas and blocks come from the chain: every block between a run's start and end holds only
 * that run's transactions, so their gasUsed is the run's gas. Gas and transaction counts are the
 * same whether the node mines a block per second or a block per transaction (same transactions,
 * same senders and nonces, same state); blocks spanned and wall time are not.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ContractFactory, JsonRpcProvider, Network, Wallet } from "ethers";
import { contractsDir, DEV_KEYS, devWallet, startNode } from "@points/testkit";
import { deployProgram, loadArtifact, MemoryStore } from "../src/index.js";

const EXECUTOR_KEY = DEV_KEYS[0];
const BRAND_WALLET = devWallet(1).address;

export interface Run {
  name: string;
  wallMs: number;
  firstBlock: number;
  lastBlock: number;
  transactions: number;
  gas: bigint;
  /** "block(transactions)" of every block holding the run's transactions. */
  perBlock: string[];
}

export interface BenchResult {
  a: Run;
  b: Run;
  c: Run;
  /** The node's web3_clientVersion. */
  client: string;
}

/** Transactions and gas of the blocks (start, end]: the blocks a run filled. */
async function measure(provider: JsonRpcProvider, name: string, start: number, end: number, wallMs: number) {
  let gas = 0n;
  let transactions = 0;
  let firstBlock = 0;
  let lastBlock = 0;
  const perBlock: string[] = [];
  for (let n = start + 1; n <= end; n++) {
    const block = await provider.getBlock(n);
    if (!block || block.transactions.length === 0) continue;
    gas += block.gasUsed;
    transactions += block.transactions.length;
    perBlock.push(`${n}(${block.transactions.length})`);
    firstBlock ||= n;
    lastBlock = n;
  }
  return { name, wallMs, firstBlock, lastBlock, transactions, gas, perBlock } satisfies Run;
}

async function ours(signer: Wallet, store: MemoryStore, name: string, brand: string, usdc: string) {
  const provider = signer.provider as JsonRpcProvider;
  const start = await provider.getBlockNumber();
  const t0 = Date.now();
  await deployProgram(
    {
      brand,
      tokenName: `${brand} points`,
      tokenSymbol: brand.toUpperCase(),
      deployer: BRAND_WALLET,
      collateralAsset: usdc,
    },
    signer,
    store,
  );
  const wallMs = Date.now() - t0;
  // deployProgram returns after its receipts (and its verify reads): every tx is in a block <= end.
  const end = await provider.getBlockNumber();
  return measure(provider, name, start, end, wallMs);
}

function naive(url: string, usdc: string): Promise<{ startBlock: number; endBlock: number; wallMs: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), "naive-deploy-"));
  const out = path.join(dir, "out.json");
  const cwd = contractsDir();
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(cwd, "node_modules", ".bin", "hardhat"),
      ["run", "bench/naiveDeploy.ts", "--network", "localhost"],
      {
        cwd,
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, RPC_URL: url, COLLATERAL: usdc, BENCH_OUT: out },
      },
    );
    child.once("error", reject);
    child.once("exit", (code) => {
      try {
        if (code === 0) resolve(JSON.parse(readFileSync(out, "utf8")));
        else reject(new Error(`naive deploy exited ${code}`));
      } catch (e) {
        reject(e);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}

/**
 * Starts a Hardhat node, runs (b), (a), (c) on it and stops it. `blockIntervalMs`: a block every
 * this many milliseconds without automine (the benchmark: 1000); omitted, a block per transaction
 * (same gas, faster: what the README check uses).
 */
export async function runBench(opts: { blockIntervalMs?: number; log?: (line: string) => void } = {}) {
  const node = await startNode({ kind: "hardhat", blockIntervalMs: opts.blockIntervalMs });
  // As the CLI does: no response cache, receipts polled every 250 ms (ethers' default is 4 s).
  const provider = new JsonRpcProvider(node.url, Network.from(31337n), {
    staticNetwork: true,
    cacheTimeout: -1,
    pollingInterval: 250,
  });
  try {
    const signer = new Wallet(EXECUTOR_KEY, provider);
    const store = new MemoryStore();
    // Setup, not measured: the collateral every run uses.
    const mock = loadArtifact("MockStablecoin");
    const usdc = await new ContractFactory(mock.abi, mock.bytecode, signer).deploy("USD Coin", "USDC", 6);
    await usdc.waitForDeployment();
    const usdcAddress = await usdc.getAddress();
    const client = String(await provider.send("web3_clientVersion", []));

    const mining = opts.blockIntervalMs ? `one block per ${opts.blockIntervalMs} ms` : "one block per transaction";
    opts.log?.(`node ${node.url} (${client}): ${mining}; running (b), (a), (c) ...`);
    const b = await ours(signer, store, "(b) first program, release included", "first", usdcAddress);
    const a = await ours(signer, store, "(a) program on a chain with a release", "second", usdcAddress);
    const n = await naive(node.url, usdcAddress);
    const c = await measure(provider, "(c) naive: deployProxy x4 + wiring/roles", n.startBlock, n.endBlock, n.wallMs);
    return { a, b, c, client } satisfies BenchResult;
  } finally {
    provider.destroy();
    await node.stop();
  }
}

/** Blocks from the first to the last holding a run's transactions. */
export const blocksSpanned = (r: Run) => r.lastBlock - r.firstBlock + 1;

/** 100 * part / whole, truncated to two decimals. */
export const percent = (part: bigint, whole: bigint) => Number((part * 10_000n) / whole) / 100;
