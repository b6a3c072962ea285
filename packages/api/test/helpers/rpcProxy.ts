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

/** A counting HTTP proxy in front of a JSON-RPC node: forwards each request as is and records it. */
export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const requests: RpcRequest[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const parsed = JSON.parse(body) as { method: string } | { method: string }[];
    requests.push(
      Array.isArray(parsed)
        ? { methods: parsed.map((p) => p.method), batch: true }
        : { methods: [parsed.method], batch: false },
    );
    const upstream = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body });
    res.writeHead(upstream.status, { "content-type": "application/json" });
    res.end(await upstream.text());
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
