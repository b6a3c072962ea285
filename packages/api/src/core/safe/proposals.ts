import { randomUUID } from "node:crypto";
import { getAddress } from "ethers";
import type { SafeTxFields } from "@points/schema";
import type { Db } from "../db/db.js";

/** A stored proposal (docs/architecture.md#safe-multisig). */
export interface StoredProposal {
  id: string;
  owner: string;
  chainId: string;
  safe: string;
  nonce: bigint;
  safeTxHash: string;
  tx: SafeTxFields;
  createdBlock: number;
  createdAt: string;
  signatures: { owner: string; signature: string; createdAt: string }[];
}

interface Row {
  id: string;
  owner: string;
  chain_id: string;
  safe: string;
  nonce: string | number;
  safe_tx_hash: string;
  tx: SafeTxFields | string;
  created_block: string | number;
  created_at: Date | string;
}
interface SigRow {
  proposal_id: string;
  signer: string;
  signature: string;
  created_at: Date | string;
}

const UNIQUE_VIOLATION = "23505";
/** The advisory lock class of proposal caps (the second key hashes owner, chain and Safe). */
const PROPOSALS_LOCK = 0x73616665; // "safe"
const iso = (d: Date | string) => new Date(d).toISOString();

/** Proposals and their signatures in the service's database, always read through their owner. */
export class SafeProposals {
  constructor(private readonly db: Db) {}

  /**
   * Stores a proposal unless `owner` already has `cap` open proposals of that Safe (nonce at or
   * after the Safe's next, `openFrom`): "capped"; "duplicate" when this owner already proposed
   * the same safeTxHash on that chain. Counted and inserted under one lock per owner and Safe, so
   * parallel proposals on every instance sharing the database get exactly the cap.
   */
  async insert(
    p: Omit<StoredProposal, "id" | "createdAt" | "signatures">,
    limit: { cap: number; openFrom: bigint },
  ): Promise<{ id: string } | "capped" | "duplicate"> {
    const id = randomUUID();
    try {
      return await this.db.transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock($1, hashtext($2))", [
          PROPOSALS_LOCK,
          `${p.owner}\n${p.chainId}\n${p.safe}`,
        ]);
        const [{ n }] = await tx.query<{ n: string | number }>(
          "SELECT count(*) AS n FROM safe_proposals WHERE owner = $1 AND chain_id = $2 AND safe = $3 AND nonce >= $4",
          [p.owner, p.chainId, p.safe, limit.openFrom.toString()],
        );
        if (Number(n) >= limit.cap) return "capped";
        await tx.query(
          `INSERT INTO safe_proposals (id, owner, chain_id, safe, nonce, safe_tx_hash, tx, created_block)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [id, p.owner, p.chainId, p.safe, p.nonce.toString(), p.safeTxHash, JSON.stringify(p.tx), p.createdBlock],
        );
        return { id };
      });
    } catch (e) {
      if ((e as { code?: string }).code === UNIQUE_VIOLATION) return "duplicate";
      throw e;
    }
  }

  /** The id of `owner`'s proposal of `safeTxHash` on `chainId`. */
  async idOf(owner: string, chainId: string, safeTxHash: string): Promise<string | undefined> {
    const rows = await this.db.query<{ id: string }>(
      "SELECT id FROM safe_proposals WHERE owner = $1 AND chain_id = $2 AND safe_tx_hash = $3",
      [owner, chainId, safeTxHash],
    );
    return rows[0]?.id;
  }

  /** `owner`'s proposal `id`, or undefined (another owner's proposal is not found either). */
  async get(owner: string, id: string): Promise<StoredProposal | undefined> {
    const rows = await this.db.query<Row>("SELECT * FROM safe_proposals WHERE id = $1 AND owner = $2", [id, owner]);
    return rows[0] ? (await this.withSignatures(rows))[0] : undefined;
  }

  /**
   * One page of `owner`'s proposals, newest first: at most `limit` after the proposal `after`
   * (the previous page's last), and whether more follow; undefined when `after` is not `owner`'s.
   */
  async list(
    owner: string,
    filter: { chainId?: string; safe?: string },
    page: { limit: number; after?: string },
  ): Promise<{ items: StoredProposal[]; more: boolean } | undefined> {
    if (page.after !== undefined) {
      const found = await this.db.query("SELECT 1 FROM safe_proposals WHERE id = $1 AND owner = $2", [
        page.after,
        owner,
      ]);
      if (found.length === 0) return undefined;
    }
    // The cursor's row is compared in the database: a JS Date would lose created_at's microseconds.
    const rows = await this.db.query<Row>(
      `SELECT * FROM safe_proposals WHERE owner = $1 AND ($2::text IS NULL OR chain_id = $2)
       AND ($3::text IS NULL OR safe = $3)
       AND ($4::text IS NULL OR (created_at, id) < (SELECT created_at, id FROM safe_proposals WHERE id = $4))
       ORDER BY created_at DESC, id DESC LIMIT $5`,
      [owner, filter.chainId ?? null, filter.safe ? getAddress(filter.safe) : null, page.after ?? null, page.limit + 1],
    );
    return { items: await this.withSignatures(rows.slice(0, page.limit)), more: rows.length > page.limit };
  }

  /** Records `signer`'s signature; false when that signer already signed this proposal. */
  async addSignature(id: string, signer: string, signature: string): Promise<boolean> {
    const rows = await this.db.query(
      `INSERT INTO safe_proposal_signatures (proposal_id, signer, signature) VALUES ($1, $2, $3)
       ON CONFLICT (proposal_id, signer) DO NOTHING RETURNING signer`,
      [id, signer, signature],
    );
    return rows.length === 1;
  }

  private async withSignatures(rows: Row[]): Promise<StoredProposal[]> {
    if (rows.length === 0) return [];
    const sigs = await this.db.query<SigRow>(
      "SELECT * FROM safe_proposal_signatures WHERE proposal_id = ANY($1::text[]) ORDER BY created_at, signer",
      [rows.map((r) => r.id)],
    );
    return rows.map((r) => ({
      id: r.id,
      owner: r.owner,
      chainId: r.chain_id,
      safe: getAddress(r.safe),
      nonce: BigInt(r.nonce),
      safeTxHash: r.safe_tx_hash,
      tx: typeof r.tx === "string" ? (JSON.parse(r.tx) as SafeTxFields) : r.tx,
      createdBlock: Number(r.created_block),
      createdAt: iso(r.created_at),
      signatures: sigs
        .filter((s) => s.proposal_id === r.id)
        .map((s) => ({ owner: getAddress(s.signer), signature: s.signature, createdAt: iso(s.created_at) })),
    }));
  }
}
