import net from "node:net";
import { readFileSync } from "node:fs";

/**
 * The first port of the kernel's ephemeral range (the ports `listen(0)` hands out), or undefined
 * where it cannot be read.
 */
function ephemeralStart(): number | undefined {
  try {
    const first = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(first) && first > 0 ? first : undefined;
  } catch {
    return undefined;
  }
}

/** Where {@link freePort} draws from: below the ephemeral range, above the well-known ports. */
const LOW = 20_000;

/**
 * A TCP port nothing listens on right now, for a server another process will open later (a
 * Hardhat node) or for a port that must stay closed.
 *
 * It is drawn below the kernel's ephemeral range on purpose: a port the OS picked for `listen(0)`
 * and that was closed again can be handed to the next `listen(0)` of any process (a test's API or
 * proxy) in the seconds before the intended server binds it, and a "closed" port would then
 * answer. No `listen(0)` ever gets a port below that range, so only another explicit pick can
 * collide, and {@link isPortFree} catches one that is already open. Where the range cannot be
 * read (not Linux), the OS picks.
 */
export async function freePort(): Promise<number> {
  const start = ephemeralStart();
  if (start !== undefined && start > LOW + 1000) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = LOW + Math.floor(Math.random() * (start - LOW));
      if (await isPortFree(port)) return port;
    }
  }
  return osPickedPort();
}

function osPickedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** True when nothing listens on 127.0.0.1:`port`. */
export function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}
