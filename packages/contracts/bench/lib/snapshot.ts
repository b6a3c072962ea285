/**
 * The committed gas snapshot (`gas-snapshot.json`): every benchmark row's gas and every
 * contract's deployed size. `pnpm bench:gas` rewrites it; `pnpm check:gas` measures afresh and
 * fails on any difference, so every gas or size change shows in review as a diff of that file.
 */
import { readFile, writeFile } from "node:fs/promises";
import type { Row } from "./measure.js";

/** EIP-170's 24,576-byte cap less 1 kB of headroom for fixes that must still fit. */
export const MAX_CONTRACT_SIZE = 23_552;

export const SNAPSHOT_FILE = new URL("../../gas-snapshot.json", import.meta.url);

export interface Snapshot {
  /** Row -> gasUsed, or "skipped: why" for a row that could not be measured. */
  gas: Record<string, number | string>;
  /** Contract -> deployed (runtime) bytecode size in bytes. */
  sizes: Record<string, number>;
}

interface ArtifactsLike {
  getAllFullyQualifiedNames(): Promise<ReadonlySet<string> | string[]>;
  readArtifact(name: string): Promise<{ contractName: string; deployedBytecode: string }>;
}

/** Deployed size of every contract under `contracts/` with runtime code, mocks included. */
export async function contractSizes(artifacts: ArtifactsLike): Promise<Record<string, number>> {
  const sizes: Record<string, number> = {};
  const names = [...(await artifacts.getAllFullyQualifiedNames())].filter((n) => n.startsWith("contracts/")).sort();
  for (const name of names) {
    const { contractName, deployedBytecode } = await artifacts.readArtifact(name);
    const bytes = (deployedBytecode.length - 2) / 2;
    if (bytes === 0) continue;
    if (contractName in sizes) throw new Error(`two contracts named ${contractName}: rename one`);
    sizes[contractName] = bytes;
  }
  return sizes;
}

export function toSnapshot(rows: Row[], sizes: Record<string, number>): Snapshot {
  const gas: Snapshot["gas"] = {};
  for (const r of rows) {
    if (r.operation in gas) throw new Error(`duplicate gas row: ${r.operation}`);
    gas[r.operation] = r.gas === undefined ? `skipped: ${r.note ?? "no reason given"}` : Number(r.gas);
  }
  return { gas, sizes };
}

export async function writeSnapshot(snapshot: Snapshot): Promise<void> {
  await writeFile(SNAPSHOT_FILE, `${JSON.stringify(snapshot, null, 2)}\n`);
}

export async function readSnapshot(): Promise<Snapshot> {
  return JSON.parse(await readFile(SNAPSHOT_FILE, "utf8")) as Snapshot;
}

const isSkipped = (v: number | string | undefined) => typeof v === "string";

/**
 * Every way `fresh` differs from `committed`: a changed, added, removed or skipped row, or a
 * changed, added or removed contract size. Only rows in `skippable` may be skipped in a fresh
 * run (their package may not deploy on every machine); they are then not compared.
 */
export function compareSnapshots(committed: Snapshot, fresh: Snapshot, skippable: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [row, was] of Object.entries(committed.gas)) {
    const now = fresh.gas[row];
    if (!(row in fresh.gas)) problems.push(`gas row removed: "${row}" (was ${was})`);
    else if (isSkipped(now) && skippable.includes(row)) continue;
    else if (isSkipped(now) && !isSkipped(was)) problems.push(`gas row skipped: "${row}" (was ${was}; ${now})`);
    else if (now !== was) problems.push(`gas row changed: "${row}" ${was} -> ${now}`);
  }
  for (const [row, now] of Object.entries(fresh.gas)) {
    if (!(row in committed.gas)) problems.push(`gas row added: "${row}" = ${now}`);
  }
  for (const [name, was] of Object.entries(committed.sizes)) {
    const now = fresh.sizes[name];
    if (now === undefined) problems.push(`contract removed: ${name} (was ${was} bytes)`);
    else if (now !== was) problems.push(`contract size changed: ${name} ${was} -> ${now} bytes`);
  }
  for (const [name, now] of Object.entries(fresh.sizes)) {
    if (!(name in committed.sizes)) problems.push(`contract added: ${name} = ${now} bytes`);
  }
  return problems;
}

/** Contracts over {@link MAX_CONTRACT_SIZE}. */
export function oversized(sizes: Record<string, number>): string[] {
  return Object.entries(sizes)
    .filter(([, bytes]) => bytes > MAX_CONTRACT_SIZE)
    .map(([name, bytes]) => `${name} is ${bytes} bytes, over the ${MAX_CONTRACT_SIZE}-byte limit`);
}
