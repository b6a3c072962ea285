import { spawn, type ChildProcess } from "node:child_process";
import { createConnection } from "node:net";
import { freePort } from "@points/testkit";

/** A private redis-server (Debian's package) on a free port: no key of another test, and it can be stopped. */
export interface PrivateRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Starts it again on the same port (after `stop`). */
  restart(): Promise<void>;
}

/** Answers true once something on `port` replies +PONG to PING. */
function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port }, () => socket.write("PING\r\n"));
    socket.setTimeout(500, () => (socket.destroy(), resolve(false)));
    socket.once("data", (d) => (socket.destroy(), resolve(d.toString().startsWith("+PONG"))));
    socket.once("error", () => resolve(false));
  });
}

export async function startRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
      stdio: "ignore",
    });
    const exited = new Promise<never>((_, reject) =>
      child!.once("error", (e) =>
        reject(new Error(`redis-server did not start (install Debian's redis-server): ${e.message}`)),
      ),
    );
    const deadline = Date.now() + 30_000;
    while (!(await Promise.race([pings(port), exited]))) {
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer within 30 s`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once("exit", () => resolve());
      c.kill("SIGKILL");
    });
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, restart: start };
}
