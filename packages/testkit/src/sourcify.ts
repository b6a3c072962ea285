import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { JsonRpcProvider } from "ethers";
import { matchesChain, readBody, solcVersion } from "./solcCompare.js";

interface Job {
  isJobCompleted: boolean;
  verificationId: string;
  contract: { match: string | null; runtimeMatch: string | null; chainId: string; address: string };
  error?: { customCode: string; message: string };
}

/**
 * A local stand-in for Sourcify's v2 verification API. `POST /v2/verify/:chainId/:address` with
 * `{stdJsonInput, compilerVersion, contractIdentifier}` answers 202 `{verificationId}`; the
 * submission is compiled with solc WASM in the background and its runtime code compared with the
 * code at the address. `GET /v2/verify/:verificationId` answers the job
 * (`{isJobCompleted, contract: {match}, error}`), and an address verified once is answered 409
 * `{customCode: "already_verified"}`, as Sourcify does. `down` makes it answer 503; `pending`
 * keeps every job incomplete (a queue that does not move).
 */
export async function startFakeSourcify(provider: Pick<JsonRpcProvider, "getCode">) {
  const jobs = new Map<string, Job>();
  const submissions: { chainId: string; address: string; contract: string; compiler: string }[] = [];
  const state = { down: false, pending: false };
  const verified = new Set<string>();

  // Every failure inside answers an error itself (bad JSON, a compiler error), so the server need not await it.
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://x").pathname.split("/").filter(Boolean);
    const reply = (body: unknown, status = 200) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (state.down) return reply({ message: "maintenance" }, 503);
    if (path[0] !== "v2" || path[1] !== "verify") return reply({ customCode: "not_found", message: "Not found" }, 404);
    if (req.method === "POST" && path.length === 4) {
      const [chainId, address] = [path[2]!, path[3]!.toLowerCase()];
      let sub: { stdJsonInput?: { settings?: object }; compilerVersion?: string; contractIdentifier?: string };
      try {
        sub = JSON.parse(await readBody(req));
      } catch {
        return reply({ customCode: "invalid_json", message: "The body is not JSON" }, 400);
      }
      if (!sub.stdJsonInput?.settings || !sub.compilerVersion || !sub.contractIdentifier?.includes(":"))
        return reply(
          { customCode: "invalid_parameter", message: "stdJsonInput, compilerVersion, contractIdentifier" },
          400,
        );
      if (verified.has(`${chainId}:${address}`))
        return reply({ customCode: "already_verified", message: "The contract is already verified" }, 409);
      submissions.push({ chainId, address, contract: sub.contractIdentifier, compiler: sub.compilerVersion });
      const job: Job = {
        isJobCompleted: false,
        verificationId: randomUUID(),
        contract: { match: null, runtimeMatch: null, chainId, address },
      };
      jobs.set(job.verificationId, job);
      // A pending queue leaves the job incomplete and the contract unverified.
      const done = (j: Partial<Job>) => state.pending || Object.assign(job, { isJobCompleted: true }, j);
      matchesChain(provider, sub.stdJsonInput, sub.contractIdentifier, address).then(
        (pass) => {
          if (state.pending) return;
          if (pass) verified.add(`${chainId}:${address}`);
          done(
            pass
              ? { contract: { ...job.contract, match: "exact_match", runtimeMatch: "exact_match" } }
              : { error: { customCode: "no_match", message: "The onchain and recompiled bytecodes don't match." } },
          );
        },
        (e: Error) => done({ error: { customCode: "compiler_error", message: `Compiler error: ${e.message}` } }),
      );
      return reply({ verificationId: job.verificationId }, 202);
    }
    if (req.method === "GET" && path.length === 3) {
      const job = jobs.get(path[2]!);
      return job ? reply(job) : reply({ customCode: "not_found", message: "No verification job with this id" }, 404);
    }
    return reply({ customCode: "not_found", message: "Not found" }, 404);
  };
  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}`,
    state,
    submissions,
    /** `chainId:address` (lower case) of the contracts this server shows as verified. */
    verified,
    solcVersion: await solcVersion(),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
