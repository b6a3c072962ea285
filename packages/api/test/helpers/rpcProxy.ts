import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One HTTP request that reached the node: the JSON-RPC methods it carried (a batch has several). */
export interface RpcRequest {
  methods: string[];
  batch: boolean;
}

export interface RpcProxy {
  url: string;
  requests: RpcRequest[];
  /** Every method of every request, flattened. */
  methods(): string[];
  reset(): void;
  close(): Promise<void>;
}

type Call = { id?: unknown; method: string };

/** The node's answer with every eth_chainId result replaced by `chainId`. */
function posing(request: Call | Call[], answer: string, chainId: number): string {
  const asked = new Set(
    (Array.isArray(request) ? request : [request]).filter((c) => c.method === "eth_chainId").map((c) => c.id),
  );
  if (asked.size === 0) return answer;
  const patch = (r: { id?: unknown; result?: unknown }) =>
    asked.has(r.id) ? { ...r, result: `0x${chainId.toString(16)}` } : r;
  const parsed = JSON.parse(answer) as { id?: unknown } | { id?: unknown }[];
  return JSON.stringify(Array.isArray(parsed) ? parsed.map(patch) : patch(parsed));
}

/**
 * A counting HTTP proxy in front of a JSON-RPC node: forwards each request as is and records it.
 * `opts.chainId` makes a single `eth_chainId` call answer that id (a dev node posing as another chain).
 */
export async function startRpcProxy(target: string, opts: { chainId?: number } = {}): Promise<RpcProxy> {
  const requests: RpcRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const parsed = JSON.parse(body) as Call | Call[];
    requests.push(
      Array.isArray(parsed)
        ? { methods: parsed.map((p) => p.method), batch: true }
        : { methods: [parsed.method], batch: false },
    );
    const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
    res.writeHead(upstream.status, { "content-type": "application/json" });
    res.end(opts.chainId === undefined ? await upstream.text() : posing(parsed, await upstream.text(), opts.chainId));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    methods: () => requests.flatMap((r) => r.methods),
    reset: () => void requests.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
