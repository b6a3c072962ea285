import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One HTTP request that reached the node: the JSON-RPC methods it carried (a batch has several). */
export interface RpcRequest {
  methods: string[];
  batch: boolean;
}

/** One JSON-RPC call that reached the proxy (a batch holds several). */
export interface RpcCall {
  method: string;
  params: unknown[];
}

/** A failure the proxy answers instead of forwarding: an HTTP status and body, or a dropped connection. */
export type RpcFault = { status: number; body?: string } | "drop";

export interface RpcProxy {
  url: string;
  /** Decides per request (its methods) whether to fail it; undefined forwards. */
  fault?: (methods: string[]) => RpcFault | undefined;
  /** Rewrites the node's answers before they are returned (a node of another kind). */
  rewrite?: (body: string) => string;
  /** Rewrites each call before it is forwarded (a node with other defaults); the call as sent is recorded. */
  forward?: (call: RpcCall) => RpcCall;
  requests: RpcRequest[];
  /** Every call with its params, flattened. */
  calls: RpcCall[];
  /** Every method of every request, flattened. */
  methods(): string[];
  reset(): void;
  close(): Promise<void>;
}

type Call = { id?: unknown; method: string; params?: unknown[] };

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
 * A counting HTTP proxy in front of a JSON-RPC node: forwards each request as is and records it,
 * or answers the failure `fault` picks for it. `opts.chainId` makes a single `eth_chainId` call
 * answer that id (a dev node posing as another chain).
 */
export async function startRpcProxy(target: string, opts: { chainId?: number } = {}): Promise<RpcProxy> {
  const requests: RpcRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const parsed = JSON.parse(body) as Call | Call[];
    const calls = Array.isArray(parsed) ? parsed : [parsed];
    requests.push({ methods: calls.map((p) => p.method), batch: Array.isArray(parsed) });
    proxy.calls.push(...calls.map((p) => ({ method: p.method, params: p.params ?? [] })));
    const fault = proxy.fault?.(requests[requests.length - 1]!.methods);
    if (fault === "drop") return void req.socket.destroy();
    if (fault) {
      res.writeHead(fault.status, { "content-type": "application/json" });
      return void res.end(fault.body ?? "");
    }
    const forward = proxy.forward;
    const sent = forward
      ? JSON.stringify(
          Array.isArray(parsed)
            ? parsed.map((c) => ({ ...c, ...forward({ method: c.method, params: c.params ?? [] }) }))
            : { ...parsed, ...forward({ method: parsed.method, params: parsed.params ?? [] }) },
        )
      : body;
    const upstream = await fetch(target, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: sent,
    });
    res.writeHead(upstream.status, { "content-type": "application/json" });
    const text = await upstream.text();
    const answer = opts.chainId === undefined ? text : posing(parsed, text, opts.chainId);
    res.end(proxy.rewrite ? proxy.rewrite(answer) : answer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: RpcProxy = {
    url: `http://127.0.0.1:${port}`,
    requests,
    calls: [],
    methods: () => requests.flatMap((r) => r.methods),
    reset: () => {
      requests.splice(0);
      proxy.calls.splice(0);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return proxy;
}
