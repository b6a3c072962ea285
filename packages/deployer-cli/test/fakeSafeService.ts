import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the fake Safe Transaction Service received. */
export interface ServiceRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

/**
 * A stand-in for the Safe Transaction Service on a free port: it records every request and
 * answers `status` (201, as the service answers an accepted proposal, unless told otherwise).
 * `url` is its base URL as `@safe-global/api-kit` takes it (ending in /api).
 */
export async function startFakeSafeService() {
  const requests: ServiceRequest[] = [];
  let status = 201;
  let answer = "";
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString()));
    req.on("end", () => {
      requests.push({ method: req.method ?? "", path: req.url ?? "", body: raw ? JSON.parse(raw) : {} });
      res.writeHead(status, { "content-type": "application/json" }).end(answer);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/api`,
    requests,
    /** The next answers: `code` and its body. */
    answerWith(code: number, body = "") {
      status = code;
      answer = body;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
