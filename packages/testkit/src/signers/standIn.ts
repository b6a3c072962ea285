import type { IncomingMessage, Server, ServerResponse } from "node:http";

/** A request's whole body as text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Closes a stand-in: the answers it holds back (a KMS that never answers) are cut, then the server. */
export async function closeStandIn(server: Server, held: ServerResponse[]): Promise<void> {
  held.splice(0).forEach((r) => r.destroy());
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}
