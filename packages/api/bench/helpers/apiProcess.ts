import { spawn, type ChildProcess } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "@points/testkit";

const API_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export interface ApiProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * `points-api <command>` in a process of its own, as deployed, on a free port; `serve` is waited
 * for until /health answers. A process that does not come up is killed, not left behind.
 * BENCH_API_NODE_ARGS: extra Node flags for the process (e.g. --cpu-prof).
 */
export async function startApiProcess(command: "serve" | "worker", env: NodeJS.ProcessEnv): Promise<ApiProcess> {
  const port = await freePort();
  const nodeArgs = (process.env.BENCH_API_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", "src/cli/main.ts", command], {
    cwd: API_DIR,
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...env, HOST: "127.0.0.1", PORT: String(port) },
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((r) => {
      if (child.exitCode !== null || child.signalCode !== null) return r();
      child.once("exit", () => r());
      child.kill("SIGTERM");
    });
  if (command === "serve") {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${url}/health`)).ok) break;
      } catch {
        if (child.exitCode !== null || i > 240) {
          await stop();
          throw new Error(`points-api ${command} did not start`);
        }
        await new Promise((r) => setTimeout(r, 250));
      }
    }
  }
  return { url, child, stop };
}
