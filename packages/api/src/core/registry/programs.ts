import { getAddress, isAddress } from "ethers";
import type { ProgramLocation } from "@points/contracts/program";
import type { Db, Queryable } from "../db/db.js";
import { ApiError, invalidInput, notFound } from "../errors.js";
import { TtlCache } from "../db/ttlCache.js";

/** A program the service can act on: its chain and its five contracts. */
export interface Program extends ProgramLocation {
  id: string;
  programFactory: string | null;
  deployTx: string | null;
  blockNumber: number | null;
  metadata: Record<string, unknown>;
  createdAt: string;
}

export type NewProgram = Omit<Program, "id" | "createdAt" | "metadata"> & { metadata?: Record<string, unknown> };

interface Row {
  id: string;
  chain_id: string;
  brand: string;
  factory: string;
  points: string;
  collateral_vault: string;
  psp_vault: string;
  oracle: string | null;
  program_factory: string | null;
  deploy_tx: string | null;
  block_number: string | number | null;
  metadata: Record<string, unknown> | string;
  created_at: Date | string;
}

const fromRow = (r: Row): Program => ({
  id: r.id,
  chainId: String(r.chain_id),
  brand: r.brand,
  factory: getAddress(r.factory),
  points: getAddress(r.points),
  collateralVault: getAddress(r.collateral_vault),
  pspVault: getAddress(r.psp_vault),
  oracle: r.oracle ? getAddress(r.oracle) : null,
  programFactory: r.program_factory ? getAddress(r.program_factory) : null,
  deployTx: r.deploy_tx,
  blockNumber: r.block_number === null ? null : Number(r.block_number),
  metadata: typeof r.metadata === "string" ? JSON.parse(r.metadata) : r.metadata,
  createdAt: new Date(r.created_at).toISOString(),
});

const UNIQUE_VIOLATION = "23505";

/**
 * The program registry, in the database (embedded or PostgreSQL). A brand is unique per chain;
 * the id of a program is its brand, or `<brand>-<chainId>` when another chain's program of the
 * same brand holds the plain id (a brand has no "-", so ids never collide).
 */
export class ProgramRegistry {
  // Lookups by id, factory, chain and the sole-program question, kept for cacheMs: a program
  // registered by another instance is seen within that time; this instance's inserts at once.
  private readonly cache: TtlCache<unknown>;

  constructor(
    private readonly db: Db,
    private readonly defaultRef?: string,
    cacheMs = 0,
  ) {
    this.cache = new TtlCache(cacheMs);
  }

  private cached<T>(key: string, load: () => Promise<T>): Promise<T> {
    return this.cache.get(key, load) as Promise<T>;
  }

  /** Forgets cached lookups (a program was removed behind the cache). */
  clearCache(): void {
    this.cache.clear();
  }

  async list(): Promise<Program[]> {
    return (await this.db.query<Row>("SELECT * FROM programs ORDER BY created_at, id")).map(fromRow);
  }

  async listByChain(chainId: string): Promise<Program[]> {
    return this.cached(`chain:${chainId}`, async () => {
      const rows = await this.db.query<Row>("SELECT * FROM programs WHERE chain_id = $1 ORDER BY created_at, id", [
        chainId,
      ]);
      return rows.map(fromRow);
    });
  }

  /** Every ProgramFactory (release) a registered program of the chain came from. */
  async releasesOnChain(chainId: string): Promise<string[]> {
    const rows = await this.db.query<{ program_factory: string }>(
      "SELECT DISTINCT lower(program_factory) AS program_factory FROM programs WHERE chain_id = $1 AND program_factory IS NOT NULL",
      [chainId],
    );
    return rows.map((r) => getAddress(r.program_factory));
  }

  /** By id (brand) or Factory address; undefined when unknown. */
  async find(ref: string): Promise<Program | undefined> {
    return this.cached(`ref:${isAddress(ref) ? ref.toLowerCase() : ref}`, () => this.findUncached(ref));
  }

  private async findUncached(ref: string): Promise<Program | undefined> {
    const rows = isAddress(ref)
      ? await this.db.query<Row>("SELECT * FROM programs WHERE lower(factory) = lower($1)", [ref])
      : await this.db.query<Row>("SELECT * FROM programs WHERE id = $1", [ref]);
    if (rows.length > 1) throw invalidInput(`factory ${ref} is registered on several chains: name the program by id`);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  /** The program of `brand` on `chainId`; undefined when none is registered. */
  async findByBrand(chainId: string, brand: string): Promise<Program | undefined> {
    const rows = await this.db.query<Row>("SELECT * FROM programs WHERE chain_id = $1 AND brand = $2", [
      chainId,
      brand,
    ]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async get(ref: string): Promise<Program> {
    const found = await this.find(ref);
    if (!found) throw notFound(`no program with id or factory address ${ref}`);
    return found;
  }

  /** The program a request acts on: the one it names, else the default, else the only one. */
  async resolve(ref?: string): Promise<Program> {
    if (ref) return this.get(ref);
    if (this.defaultRef) return this.get(this.defaultRef);
    // Kept mapped: checksumming six addresses per request was 3% of a build's CPU.
    const all = await this.cached("first-two", async () =>
      (await this.db.query<Row>("SELECT * FROM programs ORDER BY created_at LIMIT 2")).map(fromRow),
    );
    if (all.length === 1) return all[0];
    if (all.length === 0) throw notFound("no program is registered yet: deploy one first");
    const message = "program is required: the server knows several programs (pass `program`: id or factory address)";
    throw invalidInput(message, { issues: [{ field: "program", message: "required when several programs exist" }] });
  }

  /** Adds a program; a brand (on its chain) or factory already registered is a CONFLICT. */
  async insert(p: NewProgram, q: Queryable = this.db): Promise<Program> {
    this.cache.clear();
    const existing = await q.query<Row>(
      "SELECT * FROM programs WHERE chain_id = $2 AND (brand = $1 OR lower(factory) = lower($3))",
      [p.brand, p.chainId, p.factory],
    );
    const conflict = () => new ApiError("CONFLICT", `program ${p.brand} (or its factory) is already registered`);
    if (existing.length) throw conflict();
    const plainIdTaken = (await q.query("SELECT 1 FROM programs WHERE id = $1", [p.brand])).length > 0;
    const id = plainIdTaken ? `${p.brand}-${p.chainId}` : p.brand;
    // Two instances may pass the check together; the UNIQUE constraints decide (23505).
    const rows = await q
      .query<Row>(
        `INSERT INTO programs (id, chain_id, brand, factory, points, collateral_vault, psp_vault, oracle, program_factory,
         deploy_tx, block_number, metadata)
       VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12) RETURNING *`,
        [
          id,
          p.chainId,
          p.brand,
          getAddress(p.factory),
          getAddress(p.points),
          getAddress(p.collateralVault),
          getAddress(p.pspVault),
          p.oracle ? getAddress(p.oracle) : null,
          p.programFactory ? getAddress(p.programFactory) : null,
          p.deployTx,
          p.blockNumber,
          JSON.stringify(p.metadata ?? {}),
        ],
      )
      .catch((e: unknown) => {
        throw (e as { code?: string }).code === UNIQUE_VIOLATION ? conflict() : e;
      });
    this.cache.clear();
    return fromRow(rows[0]);
  }
}
