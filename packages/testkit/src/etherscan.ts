import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { JsonRpcProvider } from "ethers";
import { matchesChain, readBody as body, solcVersion } from "./solcCompare.js";

/**
 * A local stand-in for an Etherscan v2 verify API. Each submission is compiled with solc WASM
 * and its runtime code compared with the code at the address (immutable values masked, as
 * explorers do); the answer follows the documented shapes (status "1" and a guid, then
 * checkverifystatus "Pass - Verified" or "Fail - Unable to verify"). An address verified once
 * is answered "Contract source code already verified", as Etherscan does. `down` makes it
 * answer 503, `limited` 429 (a rate limit).
 */
export async function startFakeEtherscan(provider: Pick<JsonRpcProvider, "getCode">, apiKey: string) {
  const jobs = new Map<string, string>();
  const submissions: { contract: string; address: string; compiler: string; sources: number }[] = [];
  const seenQueries: string[] = [];
  const state = { down: false, limited: false };
  const verified = new Set<string>();

  const check = (form: URLSearchParams): Promise<boolean> =>
    matchesChain(
      provider,
      JSON.parse(form.get("sourceCode") ?? "{}"),
      form.get("contractname") ?? "",
      form.get("contractaddress")!,
    );

  // Every failure inside answers NOTOK itself (the catch below), so the server need not await it.
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://x");
    seenQueries.push(url.search);
    const reply = (body: unknown, status = 200) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (state.down) return reply({ message: "maintenance" }, 503);
    if (state.limited) return reply({ status: "0", message: "NOTOK", result: "Max rate limit reached" }, 429);
    if (url.searchParams.get("apikey") !== apiKey)
      return reply({ status: "0", message: "NOTOK", result: "Invalid API Key" });
    const action = url.searchParams.get("action");
    try {
      if (action === "verifysourcecode" && req.method === "POST") {
        const form = new URLSearchParams(await body(req));
        const address = (form.get("contractaddress") ?? "").toLowerCase();
        if (verified.has(address)) {
          return reply({ status: "0", message: "NOTOK", result: "Contract source code already verified" });
        }
        const guid = createHash("sha256")
          .update(`${jobs.size}:${form.get("contractaddress")}`)
          .digest("hex")
          .slice(0, 50);
        submissions.push({
          contract: form.get("contractname")!,
          address: form.get("contractaddress")!,
          compiler: form.get("compilerversion")!,
          sources: Object.keys(JSON.parse(form.get("sourceCode")!).sources).length,
        });
        // Compiled in the background, as Etherscan does: the status says "Pending in queue" meanwhile.
        jobs.set(guid, "Pending in queue");
        check(form).then(
          (pass) => {
            if (pass) verified.add(address);
            jobs.set(guid, pass ? "Pass - Verified" : "Fail - Unable to verify");
          },
          (e: Error) => jobs.set(guid, `Fail - Unable to verify: ${e.message}`),
        );
        return reply({ status: "1", message: "OK", result: guid });
      }
      if (action === "checkverifystatus") {
        const r = jobs.get(url.searchParams.get("guid") ?? "");
        return r
          ? reply({
              status: r.startsWith("Pass") ? "1" : "0",
              message: r.startsWith("Fail") ? "NOTOK" : "OK",
              result: r,
            })
          : reply({ status: "0", result: "Unknown UID" });
      }
      return reply({ status: "0", message: "NOTOK", result: "Error! Missing or invalid action" });
    } catch (e) {
      return reply({ status: "0", message: "NOTOK", result: `Fail - Unable to verify: ${(e as Error).message}` });
    }
  };
  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/v2/api`,
    state,
    submissions,
    /** Addresses (lower case) whose source this explorer shows. */
    verified,
    seenQueries,
    solcVersion: await solcVersion(),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
