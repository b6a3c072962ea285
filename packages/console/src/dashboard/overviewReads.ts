import type { PointsClient } from "@points/sdk";

type Reads = {
  state: ReturnType<PointsClient["read"]["factoryState"]>;
  verification: ReturnType<PointsClient["read"]["verification"]>;
};

/** Older than this, a read started early is not shown: the overview reads again. */
const FRESH_MS = 10_000;
let early: { client: PointsClient; programId: string; at: number; reads: Partial<Reads> } | null = null;

/**
 * The overview's first reads, started by the dashboard beside its own read of the program when
 * the overview is where it opens (a reload or a deep link): otherwise they would wait for that
 * read and the overview's render, one round trip more before the cards appear.
 */
export function startOverviewReads(client: PointsClient, programId: string) {
  const reads: Reads = { state: client.read.factoryState(), verification: client.read.verification(programId) };
  // Their errors are shown by the overview once it takes them, not reported as unhandled here.
  for (const p of Object.values(reads)) p.catch(() => undefined);
  early = { client, programId, at: Date.now(), reads };
}

/** A read started early for this client and program, once; undefined when there is none (read now). */
export function takeOverviewRead<K extends keyof Reads>(client: PointsClient, programId: string, key: K) {
  if (!early || early.client !== client || early.programId !== programId || Date.now() - early.at > FRESH_MS) {
    return undefined;
  }
  const read = early.reads[key];
  delete early.reads[key];
  return read;
}
