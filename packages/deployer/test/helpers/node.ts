import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { JsonRpcProvider, Wallet } from "ethers";
import { contractsDir } from "../../src/artifacts.js";

/** Hardhat's well-known development keys (never funded anywhere real). */
export const DEV_KEYS = [
  "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
  "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d",
  "0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a",
  "0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6",
  "0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a",
  "0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba",
  "0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e",
] as const;

/** Signals the process group of `child` (started detached), ignoring a group already gone. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals) {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already exited
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface DevNode {
  url: string;
  provider: JsonRpcProvider;
  /** executor (release deployer and ProgramFactory operator), brand wallet, multisig, others. */
  wallets: Wallet[];
  snapshot(): Promise<string>;
  revert(id: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the contracts package's `hardhat node` on a free localhost port (through its own
 * Node 22 shim) and connects ethers to it. Every test file starts one and stops it after.
 */
export async function startNode(): Promise<DevNode> {
  const port = await freePort();
  const dir = contractsDir();
  const child: ChildProcess = spawn(
    path.join(dir, "node_modules", ".bin", "hardhat"),
    ["node", "--hostname", "127.0.0.1", "--port", String(port)],
    {
      cwd: dir,
      env: { ...process.env, CI: "true", HARDHAT_DISABLE_TELEMETRY: "true" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`hardhat node exited:\n${output}`);
    try {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      killGroup(child, "SIGKILL");
      throw new Error(`hardhat node did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  // cacheTimeout -1: tests read state right after evm_revert.
  const provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, cacheTimeout: -1, pollingInterval: 100 });
  return {
    url,
    provider,
    wallets: DEV_KEYS.map((k) => new Wallet(k, provider)),
    snapshot: () => provider.send("evm_snapshot", []),
    revert: async (id) => {
      await provider.send("evm_revert", [id]);
    },
    stop: async () => {
      provider.destroy();
      const exited = child.exitCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", r));
      killGroup(child, "SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
      killGroup(child, "SIGKILL");
    },
  };
}
