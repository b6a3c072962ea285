import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";
import { HDNodeWallet, JsonRpcProvider, Mnemonic, Network, NonceManager, Wallet } from "ethers";

const CONTRACTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../../contracts");
const MNEMONIC = "test test test test test test test test test test test junk";

/** Hardhat's well-known dev accounts (never funded anywhere real). */
export function devWallet(index: number, provider: JsonRpcProvider): Wallet {
  const node = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(MNEMONIC), `m/44'/60'/0'/0/${index}`);
  return new Wallet(node.privateKey, provider);
}

export async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => res(port));
    });
    s.once("error", rej);
  });
}

export interface LocalNode {
  url: string;
  provider: JsonRpcProvider;
  stop(): Promise<void>;
}

/** Starts the contracts package's `hardhat node` on `port` (default: a free one) and waits until it answers. */
export async function startNode(port?: number): Promise<LocalNode> {
  port ??= await freePort();
  const child: ChildProcess = spawn("pnpm", ["exec", "hardhat", "node", "--port", String(port)], {
    cwd: CONTRACTS_DIR,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, CI: "true" },
    detached: true,
  });
  let stderr = "";
  child.stderr?.on("data", (d) => (stderr += d));
  const url = `http://127.0.0.1:${port}`;
  const provider = new JsonRpcProvider(url, Network.from(31337), { staticNetwork: true, cacheTimeout: -1 });
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await provider.send("eth_chainId", []);
      break;
    } catch {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`hardhat node did not start: ${stderr}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  return {
    url,
    provider,
    async stop() {
      provider.destroy();
      if (child.pid && child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        process.kill(-child.pid, "SIGTERM");
        await exited;
      }
    },
  };
}

export const managed = (w: Wallet) => new NonceManager(w);
