import { Transaction, getBytes, hexlify, type JsonRpcProvider, type Wallet } from "ethers";
import { loadConfig, createService, type Service } from "../../src/index.js";
import { assertMatchesDocument } from "./documentHook.js";

export interface TestApi {
  url: string;
  service: Service;
  /** Sends a JSON request; returns status and parsed body. */
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/** The API on a free port, embedded database in memory, chain = the local node. */
export async function startApi(nodeUrl: string, env: Record<string, string> = {}): Promise<TestApi> {
  const config = loadConfig({
    PORT: "0",
    DATA_DIR: "memory://",
    LOG_LEVEL: "silent",
    CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: nodeUrl, blockTimeMs: 200 }]),
    ...env,
  });
  const service = await createService(config);
  const url = await service.listen();
  return {
    url,
    service,
    async call(method, path, body, headers = {}) {
      const res = await fetch(url + path, {
        method,
        headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
      await assertMatchesDocument(url, method, path, { status: res.status, headers: res.headers, body: parsed });
      return { status: res.status, body: parsed };
    },
    close: () => service.close(),
  };
}

/** Signs the API's unsigned transaction with `wallet` (as a user would), broadcasts it, waits. */
export async function signAndSend(provider: JsonRpcProvider, wallet: Wallet, data: { tx: string }) {
  const unsigned = Transaction.from(hexlify(getBytes(Buffer.from(data.tx, "base64"))));
  const raw = await wallet.signTransaction(unsigned);
  const sent = await provider.broadcastTransaction(raw);
  const receipt = await sent.wait();
  if (!receipt || receipt.status !== 1) throw new Error(`transaction ${sent.hash} failed`);
  return receipt;
}
