import { readdirSync, readFileSync } from "node:fs";

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** Fields of /proc/<pid>/stat after the command name (which may hold spaces): field 3 first. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined; // exited meanwhile
  }
}

/** CPU seconds (user + system) a process has used so far, read from /proc. */
export function processCpuSeconds(pid: number): number {
  const f = statFields(pid);
  if (!f) throw new Error(`process ${pid} is gone`);
  return (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND;
}

/**
 * CPU seconds used so far by every live process of process group `pgid` (a dev node started
 * through a shim forks: the group holds the node itself).
 */
export function groupCpuSeconds(pgid: number): number {
  let ticks = 0;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid)) continue;
    const f = statFields(pid);
    if (f && Number(f[2]) === pgid) ticks += Number(f[11]) + Number(f[12]);
  }
  return ticks / TICKS_PER_SECOND;
}

/** This process's own CPU seconds (user + system). */
export function ownCpuSeconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
}
