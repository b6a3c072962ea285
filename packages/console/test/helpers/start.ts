import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@points/testkit";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../../..");

/** A running `node scripts/start.mjs` (the README's main job after its build), as a newcomer sees it. */
export interface StartRun {
  apiUrl: string;
  chainUrl: string;
  /** The demo account it prints (signs in to the demo program's dashboard). */
  demoEmail: string;
  /** Its embedded database, which it holds while it runs. */
  dataDir: string;
  /** Everything it printed so far. */
  output(): string;
  /** Ends it and every process it started (Ctrl-C first, then SIGKILL to what is left), and removes its folder. */
  stop(): Promise<void>;
}

/** This process's descendants now (the Hardhat node runs in a process group of its own, so a group kill misses it). */
function descendants(pid: number): number[] {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  for (let queue = [pid]; queue.length > 0;) {
    const parent = queue.shift()!;
    for (const [child, ppid] of rows) if (ppid === parent) (found.push(child), queue.push(child));
  }
  return found;
}

const kill = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
};

/**
 * Spawns scripts/start.mjs on free ports with a temporary START_DIR (no build: the built packages are used as they are)
 * and waits for its "running" banner. Its process tree is killed when this process exits, even on a failure.
 */
export async function startPlatform(): Promise<StartRun> {
  const dir = mkdtempSync(join(tmpdir(), "points-start-"));
  const [chainPort, apiPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [join(ROOT, "scripts", "start.mjs")], {
    cwd: ROOT,
    env: { ...process.env, CHAIN_PORT: String(chainPort), API_PORT: String(apiPort), START_DIR: join(dir, "dev") },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const tree = new Set<number>([child.pid!]);
  const remember = () => descendants(child.pid!).forEach((p) => tree.add(p));
  const killAll = () => tree.forEach((p) => kill(p, "SIGKILL"));
  const onSignal = () => (killAll(), process.exit(1));
  process.once("exit", killAll).once("SIGINT", onSignal).once("SIGTERM", onSignal);
  let output = "";
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));

  const stop = async () => {
    remember();
    kill(child.pid!, "SIGTERM");
    // start.mjs stops the API and the node on SIGTERM; whatever is still there after 15 s is killed.
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    killAll();
    process.removeListener("exit", killAll).removeListener("SIGINT", onSignal).removeListener("SIGTERM", onSignal);
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    // The wait ends on the banner or on start.mjs's exit; the bound only turns a hang into a clear failure.
    for (const deadline = Date.now() + 180_000; !output.includes("Press Ctrl-C to stop everything.");) {
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`start.mjs did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    remember();
    const field = (re: RegExp) => re.exec(output)?.[1] ?? "";
    return {
      apiUrl: field(/^ {2}API {16}(\S+)/m),
      chainUrl: field(/^ {2}chain \(JSON-RPC\) {3}(\S+)/m),
      demoEmail: field(/sign in as (\S+)/),
      dataDir: join(dir, "dev", "api-db"),
      output: () => output,
      stop,
    };
  } catch (e) {
    await stop();
    throw e;
  }
}
