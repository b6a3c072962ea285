#!/usr/bin/env node
/**
 * `pnpm start`: the platform on one machine. One function per service; main() starts them in
 * order and stops them in reverse on Ctrl-C.
 *
 * A local Hardhat node on 127.0.0.1:8545, a demo program deployed with points-deployer (brand
 * "demo", a fresh 6-decimal mock USDC as collateral, brand wallet = Hardhat account #1,
 * executor = account #0), and the API on 127.0.0.1:3000 with that program registered (it also
 * serves the console at /console/ when the console is built), and a 2-of-3 demo Safe owned by
 * dev accounts #6, #7 and #8.
 */
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEV_KEYS, DevNodeError, devSafe, devWallet, isPortFree, startNode } from "@points/testkit";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const deployerDir = path.join(root, "packages", "deployer");

const PORT = Number(process.env.CHAIN_PORT ?? 8545);
const API_PORT = Number(process.env.API_PORT ?? 3000);
// Hardhat's public development accounts: funded only on a local node.
const EXECUTOR = { address: devWallet(0).address, key: DEV_KEYS[0] };
const BRAND_WALLET = devWallet(1).address;
const BRAND_KEY = DEV_KEYS[1];
const CUSTOMER = devWallet(2).address;
const CUSTOMER_KEY = DEV_KEYS[2];
/** E-mail domain of the dev console accounts (the demo account's too): approved to deploy on this dev setup. */
const DEV_DOMAIN = "console.localhost";
/**
 * Manifests, chain log and database of the throwaway dev chain (git-ignored, wiped on every start: the chain is new).
 * START_DIR puts them elsewhere (a test's temporary folder): a new or empty folder, never wiped.
 */
const DEV_MANIFESTS = process.env.START_DIR
  ? path.resolve(process.env.START_DIR)
  : path.join(deployerDir, "manifests", "dev");

/** Service: the local chain. Returns its handle ({url, stop}). */
async function startChain() {
  if (!(await isPortFree(PORT))) {
    throw new DevNodeError(
      `port ${PORT} on 127.0.0.1 is already in use (another node or \`pnpm start\` running?): stop it, or set CHAIN_PORT to another port`,
    );
  }
  if (!process.env.START_DIR) rmSync(DEV_MANIFESTS, { recursive: true, force: true });
  else if (existsSync(DEV_MANIFESTS) && readdirSync(DEV_MANIFESTS).length > 0) {
    throw new DevNodeError(`START_DIR ${DEV_MANIFESTS} is not empty: name a new or empty folder`);
  }
  mkdirSync(DEV_MANIFESTS, { recursive: true });
  const logFile = path.join(DEV_MANIFESTS, "hardhat-node.log");
  console.log(`starting a Hardhat node on 127.0.0.1:${PORT} (log: ${path.relative(root, logFile)}) ...`);
  const chain = await startNode({ port: PORT, log: createWriteStream(logFile) });
  return { name: "hardhat node", url: chain.url, provider: chain.provider, stop: chain.stop };
}

/** Service step: the release and the demo program, deployed by the CLI like a user would. */
async function deployDemo(chain) {
  const args = [
    path.join(root, "packages", "deployer-cli", "dist", "main.js"),
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

/**
 * Service step: Safe v1.4.1 on the dev chain and a 2-of-3 demo Safe owned by dev accounts 6, 7
 * and 8 (docs/architecture.md#safe-multisig). Returns its address, owners and the Safe contracts.
 */
async function createDemoSafe(chain) {
  const s = await devSafe(chain.provider, { saltNonce: 0n });
  return { address: s.address, threshold: s.threshold, owners: s.owners.map((o) => o.address), infra: s.infra };
}

/** Service: the API, with the demo program in its registry and one API key for the examples. */
async function startApi(chain) {
  if (!(await isPortFree(API_PORT))) {
    throw new DevNodeError(`port ${API_PORT} on 127.0.0.1 is already in use: stop it, or set API_PORT to another port`);
  }
  const { loadConfig, createService, createDevProgramAccount } = await import(
    path.join(root, "packages", "api", "dist", "index.js"),
  );
  const manifest = JSON.parse(readFileSync(path.join(DEV_MANIFESTS, "31337", "demo.json"), "utf8"));
  const config = loadConfig({
    // Sign-in codes of the local console go to the dev mailbox page (loopback clients only).
    DEV_MAILBOX: "1",
    // The local chain mines only on demand: the ledger (the console's lists) follows its head.
    LEDGER_CONFIRMATIONS: "0",
    // Console accounts under the dev domain may deploy from the wizard at once (a dev chain on loopback);
    // any other address waits for \`points-api accounts approve\` like in production.
    CONSOLE_DEPLOY_DOMAINS: DEV_DOMAIN,
    ...process.env,
    HOST: "127.0.0.1",
    PORT: String(API_PORT),
    // A fresh chain: a fresh embedded database next to its manifests.
    DATA_DIR: path.join(DEV_MANIFESTS, "api-db"),
    CHAINS: JSON.stringify([{ chainId: 31337, name: "Local Hardhat", rpcUrl: chain.url, testnet: true }]),
    LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
  });
  const service = await createService(config);
  const r = manifest.record;
  const program = await service.ctx.programs.insert({
    chainId: "31337",
    brand: r.brand,
    factory: r.addresses.factory,
    points: r.addresses.points,
    collateralVault: r.addresses.collateralVault,
    pspVault: r.addresses.pspVault,
    oracle: r.addresses.oracle ?? null,
    programFactory: r.programFactory,
    deployTx: r.txHash,
    blockNumber: r.blockNumber,
    metadata: { collateralAsset: r.collateralAsset },
  });
  const { key } = await service.ctx.keys.create("pnpm start");
  // A console account with a fresh e-mail that opens the demo program (dev chain + loopback only).
  const demo = await createDevProgramAccount(service.ctx, program.id, BRAND_WALLET);
  const url = await service.listen();
  const consoleBuilt = existsSync(path.join(root, "packages", "console", "dist", "index.html"));
  return { name: "API", url, key, consoleBuilt, demoEmail: demo.email, stop: () => service.close() };
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
    const safe = await createDemoSafe(chain);
    const api = await startApi(chain);
    running.push(api);
    const customer = CUSTOMER;
    console.log(`
The platform is running:
  chain (JSON-RPC)   ${chain.url}   chain id 31337
  API                ${api.url}   reference ${api.url}/api/v1/reference
  console            ${api.consoleBuilt ? `${api.url}/console/` : "(not built: pnpm --filter @points/console build)"}
                     sign in as ${api.demoEmail} (new every start; the code is at ${api.url}/console/dev/mailbox)
                     to land on the demo program's dashboard; connect dev account #1 (the brand wallet)
                     any name@${DEV_DOMAIN} may deploy from the wizard at once; for other addresses start with
                     CONSOLE_DEPLOY_DOMAINS=${DEV_DOMAIN},<their domain> pnpm start (this database is new every start)
  API key            ${api.key}
  manifests          ${path.relative(root, DEV_MANIFESTS)}

Dev accounts (Hardhat's public keys, funded with ETH on this local chain only; never use them elsewhere):
  #0 executor        ${EXECUTOR.address}
                     key ${EXECUTOR.key}
                     deployed the release and the program; EXECUTOR_ROLE on the Factory (redemptions only)
  #1 brand wallet    ${BRAND_WALLET}
                     key ${BRAND_KEY}
                     DEFAULT_ADMIN_ROLE on every contract, MANAGER_ROLE, PAUSER_ROLE and every PSPVault role
  #2 customer        ${CUSTOMER}
                     key ${CUSTOMER_KEY}
                     no role (used in the examples below)

Demo Safe v1.4.1 (${safe.threshold} of ${safe.owners.length}, no program role yet): ${safe.address}
  owners             ${safe.owners.join("\n                     ")}
                     dev accounts #6, #7, #8 (keys: Hardhat's public dev keys)
  Safe contracts     singleton ${safe.infra.singleton}, proxy factory ${safe.infra.proxyFactory}
                     MultiSendCallOnly ${safe.infra.multiSendCallOnly}, fallback handler ${safe.infra.fallbackHandler}

Try it:
  curl -s ${api.url}/api/v1/evm/factory/state
  curl -s -X POST ${api.url}/studio/sdk/v1/tx/whitelist/mint/add \\
    -H 'Authorization: Bearer ${api.key}' -H 'Content-Type: application/json' \\
    -d '{"account":"${customer}","from":"${BRAND_WALLET}"}'
  (the second answers an unsigned transaction for the brand wallet to sign)

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
