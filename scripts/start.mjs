#!/usr/bin/env node
/**
 * `pnpm start`: the platform on one machine. One function per service; main() starts them in
 * order and stops them in reverse on Ctrl-C. Later services (API, console) add a function here.
 *
 * Now: a local Hardhat node on 127.0.0.1:8545 and a demo program deployed with points-deployer
 * (brand "demo", a fresh 6-decimal mock USDC as collateral, brand wallet = Hardhat account #1,
 * executor = account #0).
 */
import { spawn } from "node:child_process";
import { createWriteStream, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const deployerDir = path.join(root, "packages", "deployer");
const { startHardhatNode, isPortFree, DevNodeError } = await import(
  path.join(deployerDir, "dist", "cli", "devnode.js")
);

const PORT = Number(process.env.CHAIN_PORT ?? 8545);
// Hardhat's public development accounts: funded only on a local node.
const EXECUTOR = {
  address: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
  key: "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
};
const BRAND_WALLET = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
/** Manifests of the throwaway dev chain (git-ignored, wiped on every start: the chain is new). */
const DEV_MANIFESTS = path.join(deployerDir, "manifests", "dev");

/** Service: the local chain. Returns its handle ({url, stop}). */
async function startChain() {
  if (!(await isPortFree(PORT))) {
    throw new DevNodeError(
      `port ${PORT} on 127.0.0.1 is already in use (another node or \`pnpm start\` running?): stop it, or set CHAIN_PORT to another port`,
    );
  }
  rmSync(DEV_MANIFESTS, { recursive: true, force: true });
  mkdirSync(DEV_MANIFESTS, { recursive: true });
  const logFile = path.join(DEV_MANIFESTS, "hardhat-node.log");
  console.log(`starting a Hardhat node on 127.0.0.1:${PORT} (log: ${path.relative(root, logFile)}) ...`);
  const chain = await startHardhatNode({ port: PORT, log: createWriteStream(logFile) });
  return { name: "hardhat node", url: chain.url, stop: chain.stop };
}

/** Service step: the release and the demo program, deployed by the CLI like a user would. */
async function deployDemo(chain) {
  const args = [
    path.join(deployerDir, "dist", "cli", "main.js"),
    "deploy",
    ...["--brand", "demo", "--token-name", "Demo Points", "--token-symbol", "DEMO"],
    ...["--deployer", BRAND_WALLET, "--collateral", "mock", "--manifest-dir", DEV_MANIFESTS],
  ];
  const env = { ...process.env, RPC_URL: chain.url, DEPLOYER_PRIVATE_KEY: EXECUTOR.key };
  const code = await new Promise((resolve) => {
    spawn(process.execPath, args, { stdio: ["ignore", "inherit", "inherit"], env }).once("exit", resolve);
  });
  if (code !== 0) throw new Error(`deploying the demo program failed (exit ${code})`);
}

async function main() {
  const running = [];
  const stopAll = async () => {
    for (const s of running.reverse()) {
      process.stdout.write(`stopping ${s.name} ... `);
      await s.stop();
      console.log("stopped");
    }
  };
  let stopping = false;
  const onSignal = async () => {
    if (stopping) return;
    stopping = true;
    console.log();
    await stopAll();
    process.exit(0);
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);

  try {
    const chain = await startChain();
    running.push(chain);
    await deployDemo(chain);
    console.log(`
The platform is running:
  chain (JSON-RPC)   ${chain.url}   chain id 31337
  executor           ${EXECUTOR.address} (Hardhat account #0)
  brand wallet       ${BRAND_WALLET} (Hardhat account #1)
  manifests          ${path.relative(root, DEV_MANIFESTS)}

Press Ctrl-C to stop everything.`);
  } catch (err) {
    console.error(err instanceof DevNodeError ? `error: ${err.message}` : `error: ${err?.message ?? err}`);
    await stopAll();
    process.exit(1);
  }
  // Stay up until a signal arrives.
  setInterval(() => undefined, 1 << 30);
}

await main();
