import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { rpcChainId } from "@points/contracts/program";
import { JsonRpcProvider, Network, type Wallet } from "ethers";
import { DEV_KEYS, DEV_MNEMONIC, devWallet } from "./keys.js";
import { nodeControl, type NodeControl } from "./nodes/control.js";
import { DevNodeError, testNodeKind, type NodeKind } from "./nodes/kind.js";
import { isPortFree } from "./ports.js";

export interface NodeOptions {
  /** Which node: hardhat or anvil (default: `TEST_NODE`, else hardhat). */
  kind?: NodeKind;
  /** Port to listen on; busy means an error (no silent fallback). Omitted: a free one. */
  port?: number;
  /** A block every this many milliseconds and no automine (anvil: whole seconds); omitted: a block per transaction. */
  blockIntervalMs?: number;
  /** Where the node's own log goes: a writable stream, or dropped. */
  log?: NodeJS.WritableStream;
  /** Milliseconds to wait for the JSON-RPC server to answer. */
  readyTimeoutMs?: number;
}

export interface DevNode extends NodeControl {
  kind: NodeKind;
  url: string;
  port: number;
  pid: number;
  /** Static network; cacheTimeout -1 because tests read state right after evm_revert. */
  provider: JsonRpcProvider;
  /** The dev accounts 0..9 on {@link provider} (Hardhat and anvil derive the same ones). */
  wallets: Wallet[];
  snapshot(): Promise<string>;
  revert(id: string): Promise<void>;
  stop(): Promise<void>;
}

/** The contracts package folder (its Hardhat project). */
export function contractsDir(): string {
  const require = createRequire(import.meta.url);
  return path.dirname(require.resolve("@points/contracts/package.json"));
}

/** anvil's binary, from the npm package that carries it. */
function anvilBinary(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve("@foundry-rs/anvil-linux-amd64/package.json")), "bin", "anvil");
}

/**
 * Hardhat's defaults that anvil's differ from, so a suite sees one chain whichever node runs it: chain id 31337 and
 * the dev mnemonic are the same on both; the block gas limit is not.
 */
export const DEV_CHAIN = { chainId: 31337, blockGasLimit: 60_000_000 } as const;

/** The command line of each node, and the line in its output that names the port it listens on. */
function command(kind: NodeKind, port: number): { file: string; args: string[]; cwd: string; listening: RegExp } {
  if (kind === "anvil") {
    return {
      file: anvilBinary(),
      args: [
        ...["--host", "127.0.0.1", "--port", String(port), "--chain-id", String(DEV_CHAIN.chainId)],
        ...["--gas-limit", String(DEV_CHAIN.blockGasLimit), "--mnemonic", DEV_MNEMONIC],
      ],
      cwd: process.cwd(),
      listening: /Listening on 127\.0\.0\.1:(\d+)/,
    };
  }
  // The shim in node_modules/.bin runs Hardhat on the package's own Node 22.
  const cwd = contractsDir();
  return {
    file: path.join(cwd, "node_modules", ".bin", "hardhat"),
    args: ["node", "--hostname", "127.0.0.1", "--port", String(port)],
    cwd,
    listening: /JSON-RPC server at http:\/\/127\.0\.0\.1:(\d+)/,
  };
}

/**
 * Starts a dev node (the contracts package's `hardhat node`, or anvil) on 127.0.0.1 as a child process and waits
 * until it answers JSON-RPC. Used by tests, benchmarks and `pnpm start`.
 */
export async function startNode(opts: NodeOptions = {}): Promise<DevNode> {
  const kind = opts.kind ?? testNodeKind();
  if (opts.port !== undefined && !(await isPortFree(opts.port))) {
    throw new DevNodeError(
      `port ${opts.port} on 127.0.0.1 is already in use (another node running?): stop it or pick another port`,
    );
  }
  // Without a port the node binds port 0 and says which one it got: no other process can take
  // that port between a pick and the bind.
  const cmd = command(kind, opts.port ?? 0);
  // A non-TTY child makes no telemetry connection; its own process group lets stop() end it and nothing else.
  const child = spawn(cmd.file, cmd.args, {
    cwd: cmd.cwd,
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
      const m = cmd.listening.exec(output);
      if (m) announced = Number(m[1]);
    }
    opts.log?.write(chunk);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  let exited = false;
  child.once("exit", () => (exited = true));
  child.once("error", () => (exited = true));

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
      throw new DevNodeError(`${kind} node ${why}:\n${tail.join("").trim().split("\n").slice(-10).join("\n")}`);
    }
    await new Promise((r) => setTimeout(r, announced === undefined ? 50 : 250));
  }
  if (opts.port !== undefined && announced !== opts.port) {
    await stop(child);
    throw new DevNodeError(`${kind} node listens on port ${announced}, not the ${opts.port} asked for`);
  }
  const port = announced;
  const url = `http://127.0.0.1:${port}`;
  const provider = new JsonRpcProvider(url, Network.from(chainId), {
    staticNetwork: true,
    cacheTimeout: -1,
    pollingInterval: 100,
  });
  const control = nodeControl(kind, provider);
  const nextBaseFee = new Map<string, bigint>();
  if (opts.blockIntervalMs !== undefined) {
    await control.setAutomine(false);
    await control.setIntervalMining(opts.blockIntervalMs);
  }
  return {
    ...control,
    kind,
    url,
    port,
    pid: child.pid!,
    provider,
    wallets: DEV_KEYS.map((_, i) => devWallet(i, provider)),
    snapshot: async () => {
      const id: string = await provider.send("evm_snapshot", []);
      if (kind === "anvil") nextBaseFee.set(id, await nextBlockBaseFee(provider));
      return id;
    },
    revert: async (id) => {
      await provider.send("evm_revert", [id]);
      // anvil 1.7 keeps the base fee the reverted blocks left (its fix came later): without this
      // every revert lowers the fees of the next run, and reruns stop being the same run.
      const fee = nextBaseFee.get(id);
      if (fee !== undefined) await control.setNextBaseFee(fee);
    },
    stop: async () => {
      provider.destroy();
      await stop(child);
    },
  };
}

/** The base fee the next block will have (eth_feeHistory's last entry). */
async function nextBlockBaseFee(provider: JsonRpcProvider): Promise<bigint> {
  const history: { baseFeePerGas: string[] } = await provider.send("eth_feeHistory", ["0x1", "latest", []]);
  return BigInt(history.baseFeePerGas.at(-1)!);
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
