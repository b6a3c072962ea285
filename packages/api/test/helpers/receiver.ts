import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Received {
  id: string;
  type: string;
  event: string | null;
  blockNumber: number;
  logIndex: number;
  data: Record<string, any>;
}

/**
 * A real webhook receiver on loopback: verifies every request's Standard Webhooks signature
 * with the subscription's secret (a bad one is answered 401 and counted), fails the first
 * `failFirst` requests (or all while `failing`) on purpose with 500, and keeps what it took,
 * in arrival order, with every webhook-id it saw (to check idempotency by id).
 */
export async function startReceiver() {
  const state = {
    secret: "",
    failFirst: 0,
    failing: false,
    requests: 0,
    badSignatures: 0,
    /** Every webhook-id of every request, accepted or not, in arrival order. */
    ids: [] as string[],
    /** Accepted deliveries, first time per webhook-id only. */
    accepted: [] as Received[],
    /** Accepted requests whose webhook-id was accepted before. */
    duplicates: [] as string[],
    /** Waited for after a request is taken and before it is answered (a sender killed meanwhile never hears 2xx). */
    beforeAnswer: undefined as ((id: string) => Promise<void> | void) | undefined,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      state.requests++;
      const body = Buffer.concat(chunks).toString("utf8");
      const id = String(req.headers["webhook-id"]);
      state.ids.push(id);
      let msg: { type: string; data: Record<string, any> };
      try {
        msg = new Webhook(state.secret).verify(body, req.headers as Record<string, string>) as typeof msg;
      } catch {
        state.badSignatures++;
        res.writeHead(401).end();
        return;
      }
      if (state.failing || state.failFirst > 0) {
        state.failFirst = Math.max(0, state.failFirst - 1);
        res.writeHead(500).end("failing on purpose");
        return;
      }
      if (state.accepted.some((r) => r.id === id)) state.duplicates.push(id);
      else {
        state.accepted.push({
          id,
          type: msg.type,
          event: msg.data.event,
          blockNumber: msg.data.blockNumber,
          logIndex: msg.data.logIndex,
          data: msg.data,
        });
      }
      await state.beforeAnswer?.(id);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    state,
    url: `http://127.0.0.1:${port}/hooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
