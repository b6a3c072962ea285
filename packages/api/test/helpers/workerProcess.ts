import { spawn, type ChildProcess } from "node:child_process";
import { CLI } from "./cli.js";

export interface WorkerProcess {
  child: ChildProcess;
  /** Everything it printed (JSON log lines). */
  output(): string;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** `points-api worker` (or another command of the built CLI) as a child process with `env` added to this one's. */
export function startWorkerProcess(env: Record<string, string>, command = "worker"): WorkerProcess {
  const child = spawn(process.execPath, [CLI, command], {
    env: { ...process.env, LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  return {
    child,
    output: () => out,
    async kill(signal) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill(signal);
      await exited;
    },
  };
}

/** The JSON log lines at level error (50) or fatal (60) in what a process printed. */
export const errorLines = (output: string): string[] =>
  output.split("\n").filter((l) => l.startsWith("{") && (JSON.parse(l) as { level: number }).level >= 50);
