import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type {
  DeploymentStore,
  ProgramRecord,
  Release,
  StageContext,
  StageName,
  StageRecord,
  StageStatus,
  TxInfo,
} from "./types.js";

/** One manifest: a program (`brand`) or a release (`version`) of one chain. */
interface Manifest {
  chainId: string;
  brand?: string;
  version?: string;
  record?: ProgramRecord | Release;
  stages: Partial<Record<StageName, StageRecord>>;
  updatedAt: string;
}

/** bigints are written as decimal strings; `chainId` is read back as a bigint. */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? v.toString() : v), 2) + "\n";
}

export function fromJson<T>(text: string): T {
  // A walk after a plain parse: a reviver calls back for every value of every manifest read.
  return chainIds(JSON.parse(text)) as T;
}

/** Every string `chainId` at any depth, as a bigint (what a reviver would do), in place. */
function chainIds(v: unknown): unknown {
  if (Array.isArray(v)) {
    for (const x of v) if (x !== null && typeof x === "object") chainIds(x);
  } else if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o)) {
      const x = o[k];
      if (k === "chainId" && typeof x === "string") o[k] = BigInt(x);
      else if (x !== null && typeof x === "object") chainIds(x);
    }
  }
  return v;
}

const now = () => new Date().toISOString();

/** What a manifest holds: a release of the chain, or a program (one per brand). */
export type ManifestKind = "release" | "program";

/** The first characters of every release manifest's key of `chainId`. */
export const releaseKeyPrefix = (chainId: bigint) => `${chainId}/release-`;

const kindOf = (key: string): ManifestKind => (key.includes("/release-") ? "release" : "program");

function keyOf(ctx: StageContext): string {
  // Names become file names: refuse anything that could leave the store's directory.
  if (ctx.brand !== undefined && !/^[a-z0-9]{1,32}$/.test(ctx.brand)) throw new Error(`invalid brand ${ctx.brand}`);
  if (ctx.version !== undefined && !/^[A-Za-z0-9._+-]{1,64}$/.test(ctx.version)) {
    throw new Error(`invalid version ${ctx.version}`);
  }
  if (ctx.brand) return `${ctx.chainId}/${ctx.brand}`;
  return `${ctx.chainId}/release-${ctx.version ?? "unknown"}`;
}

/**
 * The stage bookkeeping both stores share; subclasses only read and write whole manifests.
 * Updates are serialized so concurrent calls never lose each other's writes.
 */
export abstract class ManifestStore implements DeploymentStore {
  private queue: Promise<unknown> = Promise.resolve();

  protected abstract read(key: string): Promise<string | undefined>;
  /**
   * Writes the manifest. A store may refuse (answer false) when the manifest changed since the
   * text its update started from: the update then reads it again and redoes its change.
   */
  protected abstract write(key: string, text: string): Promise<void | false>;
  /**
   * The text an update starts from: `read` unless the store holds what it last wrote and its
   * `write` refuses a changed manifest (then one round trip per update instead of two).
   */
  protected readForUpdate(key: string): Promise<string | undefined> {
    return this.read(key);
  }
  /** Called once a stage's end is written, with what was written (for a store's metrics). */
  protected stageEnded(_stage: StageName, _record: StageRecord): void {}
  /**
   * The keys of the chain's manifests of one kind. A chain holds one manifest per program and a
   * few releases: finding the latest release must not read thousands of program keys.
   */
  protected abstract keys(chainId: bigint, kind: ManifestKind): Promise<string[]>;

  private async load(key: string): Promise<Manifest | undefined> {
    const text = await this.read(key);
    return text === undefined ? undefined : fromJson<Manifest>(text);
  }

  private update(ctx: StageContext, change: (m: Manifest) => void): Promise<void> {
    const run = async () => {
      const key = keyOf(ctx);
      for (let text = await this.readForUpdate(key); ; text = await this.read(key)) {
        const m: Manifest = (text === undefined ? undefined : fromJson<Manifest>(text)) ?? {
          chainId: ctx.chainId.toString(),
          ...(ctx.brand ? { brand: ctx.brand } : { version: ctx.version }),
          stages: {},
          updatedAt: now(),
        };
        change(m);
        m.updatedAt = now();
        if ((await this.write(key, toJson(m))) !== false) return;
      }
    };
    const next = this.queue.then(run, run);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private stage(m: Manifest, stage: StageName): StageRecord {
    return (m.stages[stage] ??= { status: "running", startedAt: now(), transactions: [], addresses: {} });
  }

  async getRelease(chainId: bigint, version?: string): Promise<Release | undefined> {
    if (version !== undefined) {
      return (await this.load(keyOf({ chainId, version })))?.record as Release | undefined;
    }
    return (await this.getReleases(chainId)).at(-1);
  }

  /** Every release of the chain, oldest first. */
  async getReleases(chainId: bigint): Promise<Release[]> {
    const releases: Release[] = [];
    // Only release manifests are read: a chain holds one manifest per program besides.
    for (const key of await this.keys(chainId, "release")) {
      const record = (await this.load(key))?.record as Release | undefined;
      if (record) releases.push(record);
    }
    return releases.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  saveRelease(release: Release): Promise<void> {
    return this.update({ chainId: release.chainId, version: release.version }, (m) => {
      m.record = release;
    });
  }

  async getProgram(chainId: bigint, brand: string): Promise<ProgramRecord | undefined> {
    return (await this.load(keyOf({ chainId, brand })))?.record as ProgramRecord | undefined;
  }

  /** Every program of the chain, by brand. */
  async getPrograms(chainId: bigint): Promise<ProgramRecord[]> {
    const programs: ProgramRecord[] = [];
    for (const key of (await this.keys(chainId, "program")).sort()) {
      // Another program's unreadable manifest must not stop this one's upgrade.
      const record = (await this.load(key).catch(() => undefined))?.record as ProgramRecord | undefined;
      if (record?.brand) programs.push(record);
    }
    return programs;
  }

  saveProgram(record: ProgramRecord): Promise<void> {
    return this.update({ chainId: record.chainId, brand: record.brand }, (m) => {
      m.record = record;
    });
  }

  stageStarted(ctx: StageContext, stage: StageName): Promise<void> {
    return this.update(ctx, (m) => {
      const previous = m.stages[stage];
      m.stages[stage] = {
        status: "running",
        startedAt: now(),
        // A resumed stage keeps what earlier attempts sent and planned.
        transactions: previous?.transactions ?? [],
        addresses: previous?.addresses ?? {},
        ...(previous?.nonces ? { nonces: previous.nonces } : {}),
      };
    });
  }

  stageTransaction(ctx: StageContext, stage: StageName, tx: TxInfo): Promise<void> {
    return this.update(ctx, (m) => {
      this.stage(m, stage).transactions.push({ ...tx, sentAt: now() });
    });
  }

  stageAddresses(
    ctx: StageContext,
    stage: StageName,
    addresses: Record<string, string>,
    meta?: { nonces?: Record<string, number> },
  ): Promise<void> {
    return this.update(ctx, (m) => {
      const s = this.stage(m, stage);
      Object.assign(s.addresses, addresses);
      if (meta?.nonces) s.nonces = { ...s.nonces, ...meta.nonces };
    });
  }

  async stageFinished(ctx: StageContext, stage: StageName, status: StageStatus, error?: string): Promise<void> {
    let ended: StageRecord | undefined;
    await this.update(ctx, (m) => {
      const s = (ended = this.stage(m, stage));
      s.status = status;
      s.finishedAt = now();
      // A stage that ended well has only final transactions: nothing left to send again.
      if (status !== "failed") for (const t of s.transactions) delete t.raw;
      if (error !== undefined) s.error = error;
      else delete s.error;
    });
    this.stageEnded(stage, ended!);
  }

  async getStages(ctx: StageContext): Promise<Partial<Record<StageName, StageRecord>> | undefined> {
    return (await this.load(keyOf(ctx)))?.stages;
  }
}

/**
 * Manifests as JSON files: `<dir>/<chainId>/<brand>.json` per program and
 * `<dir>/<chainId>/release-<version>.json` per release, each written to a temporary file and
 * renamed over the old one, so a crash never leaves a half-written manifest.
 */
export class JsonFileStore extends ManifestStore {
  constructor(readonly dir: string) {
    super();
  }

  /** The manifest file of a program or a release. */
  fileOf(ctx: StageContext): string {
    return path.join(this.dir, `${keyOf(ctx)}.json`);
  }

  protected async read(key: string): Promise<string | undefined> {
    try {
      return await readFile(path.join(this.dir, `${key}.json`), "utf8");
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw e;
    }
  }

  protected async write(key: string, text: string): Promise<void> {
    const file = path.join(this.dir, `${key}.json`);
    await mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    await writeFile(tmp, text, { flush: true });
    await rename(tmp, file);
  }

  protected async keys(chainId: bigint, kind: ManifestKind): Promise<string[]> {
    try {
      const names = await readdir(path.join(this.dir, chainId.toString()));
      return names
        .filter((n) => n.endsWith(".json"))
        .map((n) => `${chainId}/${n.slice(0, -".json".length)}`)
        .filter((k) => kindOf(k) === kind);
    } catch {
      return [];
    }
  }
}

/** Manifests in memory (tests, or callers that persist elsewhere). Records are copied in and out. */
export class MemoryStore extends ManifestStore {
  private readonly docs = new Map<string, string>();

  protected async read(key: string): Promise<string | undefined> {
    return this.docs.get(key);
  }

  protected async write(key: string, text: string): Promise<void> {
    this.docs.set(key, text);
  }

  protected async keys(chainId: bigint, kind: ManifestKind): Promise<string[]> {
    return [...this.docs.keys()].filter((k) => k.startsWith(`${chainId}/`) && kindOf(k) === kind);
  }
}

/** Every release `store` holds for the chain, oldest first (only the latest where it lists none). */
export async function everyRelease(store: DeploymentStore, chainId: bigint): Promise<Release[]> {
  if (store.getReleases) return store.getReleases(chainId);
  const latest = await store.getRelease(chainId);
  return latest ? [latest] : [];
}

/** Used when a caller passes no store: nothing is recorded. */
export const noStore: DeploymentStore = {
  getRelease: async () => undefined,
  saveRelease: async () => undefined,
  getProgram: async () => undefined,
  saveProgram: async () => undefined,
  stageStarted: () => undefined,
  stageTransaction: () => undefined,
  stageAddresses: () => undefined,
  stageFinished: () => undefined,
};
