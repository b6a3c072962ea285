import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import type { JsonRpcProvider } from "ethers";

const require = createRequire(import.meta.url);
// solc's WASM build, pinned to the project's compiler (0.8.28): the one compiler available offline.
const solc = require("solc") as { compile(input: string): string; version(): string };

interface Compiled {
  deployed: string;
  immutables: { start: number; length: number }[];
}

/**
 * A local stand-in for an Etherscan v2 verify API. Each submission is compiled with solc WASM
 * and its runtime code compared with the code at the address (immutable values masked, as
 * explorers do); the answer follows the documented shapes (status "1" and a guid, then
 * checkverifystatus "Pass - Verified" or "Fail - Unable to verify"). `down` makes it answer 503.
 */
export async function startFakeEtherscan(provider: JsonRpcProvider, apiKey: string) {
  const compiled = new Map<string, Record<string, Record<string, { evm: any }>>>();
  const jobs = new Map<string, string>();
  const submissions: { contract: string; address: string; compiler: string; sources: number }[] = [];
  const seenQueries: string[] = [];
  const state = { down: false };

  const compile = (input: unknown) => {
    const text = JSON.stringify(input);
    const key = createHash("sha256").update(text).digest("hex");
    let out = compiled.get(key);
    if (!out) {
      const result = JSON.parse(solc.compile(text));
      const errors = (result.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
      if (errors.length) throw new Error(errors.map((e: { message: string }) => e.message).join("; "));
      out = result.contracts;
      compiled.set(key, out!);
    }
    return out!;
  };

  const check = async (form: URLSearchParams): Promise<boolean> => {
    const [source, name] = splitIdentifier(form.get("contractname") ?? "");
    const input = JSON.parse(form.get("sourceCode") ?? "{}");
    // Only the runtime code is asked for: the comparison needs nothing else, and it is faster.
    input.settings.outputSelection = {
      "*": { "*": ["evm.deployedBytecode.object", "evm.deployedBytecode.immutableReferences"] },
    };
    const c = compile(input)[source]?.[name];
    if (!c) return false;
    const want: Compiled = {
      deployed: c.evm.deployedBytecode.object,
      immutables: Object.values(c.evm.deployedBytecode.immutableReferences ?? {}).flat() as Compiled["immutables"],
    };
    const onchain = (await provider.getCode(form.get("contractaddress")!)).slice(2);
    return masked(want.deployed, want.immutables) === masked(onchain, want.immutables);
  };

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    seenQueries.push(url.search);
    const reply = (body: unknown, status = 200) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (state.down) return reply({ message: "maintenance" }, 503);
    if (url.searchParams.get("apikey") !== apiKey)
      return reply({ status: "0", message: "NOTOK", result: "Invalid API Key" });
    const action = url.searchParams.get("action");
    try {
      if (action === "verifysourcecode" && req.method === "POST") {
        const form = new URLSearchParams(await body(req));
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
        jobs.set(guid, (await check(form)) ? "Pass - Verified" : "Fail - Unable to verify");
        return reply({ status: "1", message: "OK", result: guid });
      }
      if (action === "checkverifystatus") {
        const r = jobs.get(url.searchParams.get("guid") ?? "");
        return r
          ? reply({ status: r.startsWith("Pass") ? "1" : "0", message: "OK", result: r })
          : reply({ status: "0", result: "Unknown UID" });
      }
      return reply({ status: "0", message: "NOTOK", result: "Error! Missing or invalid action" });
    } catch (e) {
      return reply({ status: "0", message: "NOTOK", result: `Fail - Unable to verify: ${(e as Error).message}` });
    }
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    apiUrl: `http://127.0.0.1:${port}/v2/api`,
    state,
    submissions,
    seenQueries,
    solcVersion: solc.version(),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

function splitIdentifier(id: string): [string, string] {
  const i = id.lastIndexOf(":");
  return [id.slice(0, i), id.slice(i + 1)];
}

function masked(code: string, immutables: { start: number; length: number }[]): string {
  let hex = code.replace(/^0x/, "").toLowerCase();
  for (const { start, length } of immutables) {
    hex = hex.slice(0, start * 2) + "00".repeat(length) + hex.slice((start + length) * 2);
  }
  return hex;
}

const body = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (text += c));
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
