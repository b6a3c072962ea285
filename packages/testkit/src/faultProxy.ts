import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { keccak256 } from "ethers";

type Call = { jsonrpc?: string; id?: unknown; method: string; params?: unknown[] };

/**
 * What the proxy does to the requests that reach it (change it at any time; see
 * docs/architecture.md#transaction-engine for the faults the engine survives).
 */
export interface Faults {
  /** Swallow this many eth_sendRawTransaction calls: answer the right hash, forward nothing (a dropped transaction). */
  dropSends: number;
  /** Swallow, the same way, every eth_sendRawTransaction whose signed transaction this accepts. */
  dropWhen?: (raw: string) => boolean;
  /**
   * Runs once the node has answered a request, before the answer goes back: a test acts between
   * a client's read and its use of it (a transaction that reaches the node just after).
   */
  afterAnswer?: (calls: { method: string; params?: unknown[] }[]) => Promise<void> | void;
  /** Answer this many requests with HTTP 429 (Retry-After: 0) before forwarding again. */
  tooManyRequests: number;
  /** Wait this long before forwarding each request. */
  delayMs: number;
  /** Answer eth_chainId with this id instead of the node's. */
  chainId?: number;
  /** Refuse every request with a closed connection (a dead endpoint). */
  down: boolean;
  /** Forward to this node instead of the one the proxy started with (another node swapped in behind the URL). */
  target?: string;
}

export interface FaultProxy {
  url: string;
  faults: Faults;
  /** Methods of every call that reached the proxy, in order (batches flattened). */
  methods: string[];
  /** Raw transactions the proxy swallowed. */
  dropped: string[];
  close(): Promise<void>;
}

/**
 * A JSON-RPC proxy in front of a node that injects the faults of real networks: dropped
 * transactions, 429s, delays, a wrong chain id, a dead endpoint. Tests of the transaction
 * engine point a chain's rpcUrl (or one of its rpcUrls) at it.
 */
export async function startFaultProxy(target: string, faults: Partial<Faults> = {}): Promise<FaultProxy> {
  const state: FaultProxy = {
    url: "",
    faults: { dropSends: 0, tooManyRequests: 0, delayMs: 0, down: false, ...faults },
    methods: [],
    dropped: [],
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    // A proxy whose node went away (stopped, or swapped out under a request) answers 502 like a
    // real gateway; an error left to escape would end the test process after its tests passed.
    handle(req, res).catch((e: unknown) => {
      if (res.headersSent || res.destroyed) return void res.destroy();
      const message = `fault proxy: the node did not answer (${e instanceof Error ? e.message : String(e)})`;
      res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message } }));
    });
  });
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const f = state.faults;
    if (f.down) {
      req.socket.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    let parsed: Call | Call[];
    try {
      parsed = JSON.parse(body) as Call | Call[];
    } catch {
      res.writeHead(400).end();
      return;
    }
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    state.methods.push(...calls.map((c) => c.method));
    if (f.tooManyRequests > 0) {
      f.tooManyRequests--;
      res.writeHead(429, { "retry-after": "0", "content-type": "text/plain" }).end("Too Many Requests");
      return;
    }
    if (f.delayMs > 0) await new Promise((r) => setTimeout(r, f.delayMs));
    // Swallowed sends are answered here; the rest goes to the node in one request.
    const local = new Map<unknown, unknown>();
    const forward: Call[] = [];
    for (const c of calls) {
      const raw = c.method === "eth_sendRawTransaction" ? String(c.params?.[0]) : undefined;
      const byCount = raw !== undefined && f.dropSends > 0;
      if (raw !== undefined && (byCount || f.dropWhen?.(raw) === true)) {
        if (byCount) f.dropSends--;
        state.dropped.push(raw);
        local.set(c.id, { jsonrpc: "2.0", id: c.id, result: keccak256(raw) });
      } else if (c.method === "eth_chainId" && f.chainId !== undefined) {
        local.set(c.id, { jsonrpc: "2.0", id: c.id, result: `0x${f.chainId.toString(16)}` });
      } else forward.push(c);
    }
    let answers: { id?: unknown }[] = [];
    if (forward.length > 0) {
      const r = await fetch(f.target ?? target, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(Array.isArray(parsed) ? forward : forward[0]),
      });
      const got = (await r.json()) as { id?: unknown } | { id?: unknown }[];
      answers = Array.isArray(got) ? got : [got];
    }
    if (f.afterAnswer) await f.afterAnswer(calls);
    const byId = new Map(answers.map((a) => [a.id, a]));
    const out = calls.map((c) => local.get(c.id) ?? byId.get(c.id));
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(Array.isArray(parsed) ? out : out[0]));
  };
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    });
  return state;
}
