import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface Delivery {
  id: string;
  type: string;
  event: string | null;
}

/**
 * A real webhook receiver on loopback for the console walk: it verifies each request's Standard
 * Webhooks signature with the secret the console showed (401 and counted when it does not match)
 * and keeps the verified deliveries.
 */
export async function startReceiver() {
  const state = { secret: "", badSignatures: 0, accepted: [] as Delivery[] };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      try {
        const payload = new Webhook(state.secret).verify(body, {
          "webhook-id": String(req.headers["webhook-id"]),
          "webhook-timestamp": String(req.headers["webhook-timestamp"]),
          "webhook-signature": String(req.headers["webhook-signature"]),
        }) as { type: string; data: { event?: string | null } };
        state.accepted.push({
          id: String(req.headers["webhook-id"]),
          type: payload.type,
          event: payload.data?.event ?? null,
        });
        res.writeHead(204).end();
      } catch {
        state.badSignatures++;
        res.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return {
    url,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
