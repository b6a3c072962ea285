import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IncomingMessage } from "node:http";
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { JsonRpcProvider } from "ethers";

const require = createRequire(import.meta.url);

// The compile-and-compare step shared by the fake explorers (etherscan.ts, sourcify.ts).
// solc's WASM build, pinned to the project's compiler (0.8.28): the one compiler available
// offline. It compiles in a worker thread: a contract takes seconds, during which the test's
// own process (node, API, clients) must keep answering.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const solc = require(workerData.solc);
parentPort.on("message", ({ id, input }) => {
  if (id === 0) return parentPort.postMessage({ id, output: solc.version() });
  try { parentPort.postMessage({ id, output: solc.compile(input) }); }
  catch (e) { parentPort.postMessage({ id, error: String(e && e.message || e) }); }
});`;
let compiler: { worker: Worker; next: number; waiting: Map<number, (r: { output?: string; error?: string }) => void> };

function solc(id: "version" | "compile", input = ""): Promise<string> {
  if (!compiler) {
    const worker = new Worker(WORKER, { eval: true, workerData: { solc: require.resolve("solc") } });
    compiler = { worker, next: 1, waiting: new Map() };
    worker.on("message", (m: { id: number; output?: string; error?: string }) => {
      compiler.waiting.get(m.id)?.(m);
      compiler.waiting.delete(m.id);
      if (compiler.waiting.size === 0) worker.unref();
    });
  }
  const n = id === "version" ? 0 : compiler.next++;
  compiler.worker.ref();
  return new Promise((resolve, reject) => {
    compiler.waiting.set(n, (r) => (r.error !== undefined ? reject(new Error(r.error)) : resolve(r.output!)));
    compiler.worker.postMessage({ id: n, input });
  });
}

/** The WASM compiler's long version (`0.8.28+commit.7893614a.Emscripten.clang`). */
export const solcVersion = () => solc("version");

type Contracts = Record<string, Record<string, { evm: any }>>;

// Shared by every server of the process, keyed by the input's hash: solc WASM takes seconds per
// contract, and each distinct input is compiled once. The output is also kept on disk under the
// compiler's version and that hash, so the other test processes (the API's and the deployer's
// explorer tests submit the same release) read it instead of compiling again.
const compiled = new Map<string, Promise<Contracts>>();
const cacheDir = join(tmpdir(), "points-testkit-solc");
const solcPackageVersion = (require("solc/package.json") as { version: string }).version;

function compile(input: unknown): Promise<Contracts> {
  const text = JSON.stringify(input);
  const key = `${solcPackageVersion}-${createHash("sha256").update(text).digest("hex")}`;
  let out = compiled.get(key);
  if (!out) {
    const file = join(cacheDir, `${key}.json`);
    out = readFile(file, "utf8")
      .then((json) => JSON.parse(json) as Contracts)
      .catch(async () => {
        const result = JSON.parse(await solc("compile", text));
        const errors = (result.errors ?? []).filter((e: { severity: string }) => e.severity === "error");
        if (errors.length) throw new Error(errors.map((e: { message: string }) => e.message).join("; "));
        // Written whole, then renamed: a reader never sees half a file.
        await mkdir(cacheDir, { recursive: true });
        const part = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
        await writeFile(part, JSON.stringify(result.contracts));
        await rename(part, file);
        return result.contracts as Contracts;
      });
    compiled.set(key, out);
  }
  return out;
}

/**
 * Compiles `identifier` (`source:Name`) from a standard-JSON input and says whether its runtime
 * code is the code at `address`, immutable values masked as explorers do.
 */
export async function matchesChain(
  provider: Pick<JsonRpcProvider, "getCode">,
  stdJsonInput: unknown,
  identifier: string,
  address: string,
): Promise<boolean> {
  const [source, name] = splitIdentifier(identifier);
  const input = structuredClone(stdJsonInput) as { settings: { outputSelection?: unknown } };
  // Only the named contract's runtime code is asked for: solc then generates no code for the
  // other contracts of the input, and the comparison needs nothing else.
  input.settings.outputSelection = {
    [source]: { [name]: ["evm.deployedBytecode.object", "evm.deployedBytecode.immutableReferences"] },
  };
  const c = (await compile(input))[source]?.[name];
  if (!c) return false;
  const immutables = Object.values(c.evm.deployedBytecode.immutableReferences ?? {}).flat() as Immutable[];
  const onchain = (await provider.getCode(address)).slice(2);
  return masked(c.evm.deployedBytecode.object, immutables) === masked(onchain, immutables);
}

type Immutable = { start: number; length: number };

function splitIdentifier(id: string): [string, string] {
  const i = id.lastIndexOf(":");
  return [id.slice(0, i), id.slice(i + 1)];
}

function masked(code: string, immutables: Immutable[]): string {
  let hex = code.replace(/^0x/, "").toLowerCase();
  for (const { start, length } of immutables) {
    hex = hex.slice(0, start * 2) + "00".repeat(length) + hex.slice((start + length) * 2);
  }
  return hex;
}

export const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = "";
    req.setEncoding("utf8");
    req.on("data", (c) => (text += c));
    req.on("end", () => resolve(text));
    req.on("error", reject);
  });
