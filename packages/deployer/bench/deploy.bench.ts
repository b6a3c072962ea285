/**
 * Deployment benchmark (`pnpm bench:deploy`): on ONE local Hardhat node mining one block per
 * second (no automine), in this order:
 *   (b) a chain's first program, release included   (the library, fresh chain)
 *   (a) a program on a chain that has a release      (the library)
 *   (c) the naive way: OpenZeppelin deployProxy per contract + wiring and role transactions
 *       (packages/contracts/bench/naive-deploy.ts, run by Hardhat against the same node)
 * Gas and blocks come from the chain: every block between a run's start and end holds only
 * that run's transactions, so their gasUsed is the run's gas.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ContractFactory, JsonRpcProvider, Network, Wallet } from "ethers";
import { contractsDir, DEV_KEYS, devWallet, startNode } from "@points/testkit";
import { deployProgram, loadArtifact, MemoryStore } from "../src/index.js";

const EXECUTOR_KEY = DEV_KEYS[0];
const BRAND_WALLET = devWallet(1).address;

interface Result {
  name: string;
  wallMs: number;
  firstBlock: number;
  lastBlock: number;
  transactions: number;
  gas: bigint;
  /** "block(transactions)" of every block holding the run's transactions. */
  perBlock: string[];
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
  return { name, wallMs, firstBlock, lastBlock, transactions, gas, perBlock } satisfies Result;
}

async function ours(provider: JsonRpcProvider, signer: Wallet, name: string, brand: string, usdc: string) {
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
  const out = path.join(tmpdir(), `naive-${process.pid}.json`);
  const cwd = contractsDir();
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(cwd, "node_modules", ".bin", "hardhat"),
      ["run", "bench/naive-deploy.ts", "--network", "localhost"],
      {
        cwd,
        stdio: ["ignore", "ignore", "inherit"],
        env: { ...process.env, RPC_URL: url, COLLATERAL: usdc, BENCH_OUT: out },
      },
    );
    child.once("exit", (code) =>
      code === 0 ? resolve(JSON.parse(readFileSync(out, "utf8"))) : reject(new Error(`naive deploy exited ${code}`)),
    );
  });
}

const store = new MemoryStore();
const node = await startNode({ blockIntervalMs: 1000 });
try {
  // As the CLI does: no response cache, receipts polled every 250 ms (ethers' default is 4 s).
  const provider = new JsonRpcProvider(node.url, Network.from(31337n), {
    staticNetwork: true,
    cacheTimeout: -1,
    pollingInterval: 250,
  });
  const signer = new Wallet(EXECUTOR_KEY, provider);
  // Setup, not measured: the collateral every run uses.
  const mock = loadArtifact("MockStablecoin");
  const usdc = await new ContractFactory(mock.abi, mock.bytecode, signer).deploy("USD Coin", "USDC", 6);
  await usdc.waitForDeployment();
  const usdcAddress = await usdc.getAddress();

  console.log(`node ${node.url}: one block per second; running (b), (a), (c) ...`);
  const b = await ours(provider, signer, "(b) first program, release included", "first", usdcAddress);
  const a = await ours(provider, signer, "(a) program on a chain with a release", "second", usdcAddress);
  const n = await naive(node.url, usdcAddress);
  const c = await measure(provider, "(c) naive: deployProxy x4 + wiring/roles", n.startBlock, n.endBlock, n.wallMs);

  const rows = [a, b, c];
  const blocks = (r: Result) => r.lastBlock - r.firstBlock + 1;
  const header = ["run", "wall time", "blocks spanned", "transactions", "total gas"];
  const table = rows.map((r) => [
    r.name,
    `${(r.wallMs / 1000).toFixed(1)} s`,
    String(blocks(r)),
    String(r.transactions),
    r.gas.toLocaleString("en-US"),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padEnd(widths[i])).join(" | ")} |`;
  console.log([line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...table.map(line)].join("\n"));
  for (const r of [a, b]) console.log(`${r.name}: blocks(transactions) ${r.perBlock.join(" ")}`);
  const ratio = Number((a.gas * 10_000n) / c.gas) / 100;
  console.log(
    `targets: (a) one block: ${blocks(a) === 1 ? "met" : "MISSED"}; (b) at most two blocks: ${blocks(b) <= 2 ? "met" : "MISSED"}; ` +
      `gas (a) = ${ratio}% of (c), at most 25%: ${ratio <= 25 ? "met" : "MISSED"}`,
  );
  provider.destroy();
} finally {
  await node.stop();
}
