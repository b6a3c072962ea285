import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { rpcChainId } from "@points/contracts/program";
import { JsonRpcProvider, Network, type Wallet } from "ethers";
import { DEV_KEYS, devWallet } from "./keys.js";
import { isPortFree } from "./ports.js";

export interface NodeOptions {
  /** Port to listen on; busy means an error (no silent fallback). Omitted: a free one. */
  port?: number;
  /** A network of the contracts' Hardhat config (type edr-simulated), e.g. "interval1s". */
  network?: string;
  /** Where the node's own log goes: a writable stream, or dropped. */
  log?: NodeJS.WritableStream;
  /** Milliseconds to wait for the JSON-RPC server to answer. */
  readyTimeoutMs?: number;
}

export interface DevNode {
  url: string;
  port: number;
  pid: number;
  /** Static network; cacheTimeout -1 because tests read state right after evm_revert. */
  provider: JsonRpcProvider;
  /** Hardhat's dev accounts 0..9 on {@link provider}. */
  wallets: Wallet[];
  snapshot(): Promise<string>;
  revert(id: string): Promise<void>;
  stop(): Promise<void>;
}

export class DevNodeError extends Error {}

/** The contracts package folder (its Hardhat project). */
export function contractsDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve("@points/contracts/package.json"));
}

/**
 * Starts the contracts package's `hardhat node` on 127.0.0.1 as a child process and waits until
 * it answers JSON-RPC. Used by tests, benchmarks and `pnpm start`.
 */
export async function startNode(opts: NodeOptions = {}): Promise<DevNode> {
  if (opts.port !== undefined && !(await isPortFree(opts.port))) {
    throw new DevNodeError(
      `port ${opts.port} on 127.0.0.1 is already in use (another node running?): stop it or pick another port`,
    );
  }
  const cwd = contractsDir();
  const args = [...(opts.network ? ["--network", opts.network] : []), "node", "--hostname", "127.0.0.1"];
  // Without a port the node binds port 0 and says which one it got: no other process can take
  // that port between a pick and the bind.
  args.push("--port", String(opts.port ?? 0));
  // The shim in node_modules/.bin runs Hardhat on the package's own Node 22. A non-TTY child
  // makes no telemetry connection; its own process group lets stop() end it and nothing else.
  const child = spawn(path.join(cwd, "node_modules", ".bin", "hardhat"), args, {
    cwd,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, CI: "true", HARDHAT_DISABLE_TELEMETRY: "true" },
  });
  const tail: string[] = [];
  let output = "";
  let announced: number | undefined;
  const keep = (chunk: Buffer) => {
    tail.push(chunk.toString());
    if (tail.length > 20) tail.shift();
    if (announced === undefined) {
      output += chunk.toString();
      const m = /JSON-RPC server at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (m) announced = Number(m[1]);
    }
    opts.log?.write(chunk);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  let exited = false;
  child.once("exit", () => (exited = true));

  // Ready once this child has announced its own server and that server answers. A server of
  // another process on the same port never counts (it would be someone else's chain).
  const deadline = Date.now() + (opts.readyTimeoutMs ?? 90_000);
  let chainId: bigint | undefined;
  while (
    exited ||
    announced === undefined ||
    (chainId = await rpcChainId(`http://127.0.0.1:${announced}`, 1000)) === undefined
  ) {
    if (exited || Date.now() > deadline) {
      await stop(child);
      const why = exited ? "exited" : "did not answer in time";
      throw new DevNodeError(`hardhat node ${why}:\n${tail.join("").trim().split("\n").slice(-10).join("\n")}`);
    }
    await new Promise((r) => setTimeout(r, announced === undefined ? 50 : 250));
  }
  if (opts.port !== undefined && announced !== opts.port) {
    await stop(child);
    throw new DevNodeError(`hardhat node listens on port ${announced}, not the ${opts.port} asked for`);
  }
  const port = announced;
  const url = `http://127.0.0.1:${port}`;
  const provider = new JsonRpcProvider(url, Network.from(chainId), {
    staticNetwork: true,
    cacheTimeout: -1,
    pollingInterval: 100,
  });
  return {
    url,
    port,
    pid: child.pid!,
    provider,
    wallets: DEV_KEYS.map((_, i) => devWallet(i, provider)),
    snapshot: () => provider.send("evm_snapshot", []),
    revert: async (id) => {
      await provider.send("evm_revert", [id]);
    },
    stop: async () => {
      provider.destroy();
      await stop(child);
    },
  };
}

/**
 * SIGTERM to the node's process group (the hardhat and node shims fork), SIGKILL after 5 s, and
 * a last SIGKILL for anything of the group that outlived the shim.
 */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const timer = setTimeout(() => signal("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
  signal("SIGKILL");
}
