import { Transaction, getBytes, hexlify, type JsonRpcProvider, type Wallet } from "ethers";

/** The part of the API package's entry point the tests start it through. */
export interface ApiEntry<C, S extends ApiService, O = never> {
  loadConfig(env: Record<string, string | undefined>): C;
  createService(config: C, opts?: O): Promise<S>;
  /** A migrated empty database to start an in-memory one from (saves initdb and the migrations per start). */
  memoryDbTemplate?(): Promise<Blob>;
}

export interface ApiService {
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** Test-side checks run on every answer `call` gets (e.g. validating it against the API's document). */
export interface ApiHooks {
  onResponse?(
    url: string,
    method: string,
    path: string,
    res: { status: number; headers: Headers; body: unknown },
  ): Promise<void>;
}

export interface TestApi<S extends ApiService = ApiService> {
  url: string;
  service: S;
  /** Sends a JSON request; returns status and parsed body. */
  call(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: any }>;
  close(): Promise<void>;
}

/**
 * The API on a free port, embedded database in memory, chain = the local node at `nodeUrl`.
 * `entry` is the API's entry point: its own tests pass their source, other packages the build.
 */
export async function startApi<C, S extends ApiService, O = never>(
  entry: ApiEntry<C, S, O>,
  nodeUrl: string,
  env: Record<string, string> = {},
  opts?: O,
  hooks: ApiHooks = {},
): Promise<TestApi<S>> {
  const config = entry.loadConfig({
    PORT: "0",
    DATA_DIR: "memory://",
    LOG_LEVEL: "silent",
    CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: nodeUrl, blockTimeMs: 200 }]),
    ...env,
  });
  // An in-memory database starts from the API's migrated template unless the test points it elsewhere.
  const inMemory = (env.DATA_DIR ?? "memory://") === "memory://" && !env.DATABASE_URL;
  const seed = inMemory && entry.memoryDbTemplate ? { memoryDbSeed: await entry.memoryDbTemplate() } : {};
  const service = await entry.createService(config, { ...seed, ...opts } as O);
  const url = await service.listen();
  return {
    url,
    service,
    async call(method, path, body, headers = {}) {
      const res = await exchange(url + path, {
        method,
        headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      });
      const parsed = res.json === undefined ? res.text : res.json;
      await hooks.onResponse?.(url, method, path, { status: res.status, headers: res.headers, body: parsed });
      return { status: res.status, body: parsed };
    },
    close: () => service.close(),
  };
}

/** One HTTP exchange: status, headers, the raw text and the body parsed as JSON (undefined when it is not JSON). */
export async function exchange(
  url: string,
  init: RequestInit,
): Promise<{ status: number; headers: Headers; text: string; json: unknown }> {
  const res = await fetch(url, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
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
