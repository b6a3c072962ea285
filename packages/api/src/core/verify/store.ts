import type { Db } from "../db/db.js";

export type ExplorerName = "etherscan" | "sourcify";

/** One contract to verify on one explorer, as the job claims it. */
export interface DueVerification {
  chainId: string;
  address: string;
  explorer: ExplorerName;
  artifact: string;
  constructorArgs: string;
  attempts: number;
}

/** One row of a program's verification, as its view shows it. */
export interface VerificationRow {
  contract: string;
  address: string;
  explorer: ExplorerName | null;
  status: "pending" | "verified" | "failed" | null;
  url: string | null;
  reason: string | null;
  attempts: number;
  nextAttemptAt: string | null;
}

export interface NewTarget {
  contract: string;
  address: string;
  artifact: string;
  constructorArgs: string;
}

/** Source verifications (migrations 090_source_verification, 105_source_verification_claims). */
export class VerifyStore {
  constructor(private readonly db: Db) {}

  /**
   * Lists a program's contracts and queues each on each explorer, unless already there (shared
   * release contracts): one statement, so a crash leaves all of it or none.
   */
  async enqueue(programId: string, chainId: string, targets: NewTarget[], explorers: ExplorerName[]): Promise<void> {
    await this.db.query(
      `WITH t AS (
         SELECT * FROM unnest($3::text[], $4::text[], $5::text[], $6::text[]) WITH ORDINALITY
           AS t(address, contract, artifact, constructor_args, i)
       ), listed AS (
         INSERT INTO source_verification_targets (program_id, chain_id, address, contract)
         SELECT $1, $2, address, contract FROM t ORDER BY i ON CONFLICT DO NOTHING
       )
       INSERT INTO source_verifications (chain_id, address, explorer, artifact, constructor_args, status)
       SELECT $2, t.address, e.explorer, t.artifact, t.constructor_args, 'pending'
       FROM t CROSS JOIN unnest($7::text[]) WITH ORDINALITY AS e(explorer, j)
       ORDER BY t.i, e.j ON CONFLICT DO NOTHING`,
      [
        programId,
        chainId,
        targets.map((t) => t.address),
        targets.map((t) => t.contract),
        targets.map((t) => t.artifact),
        targets.map((t) => t.constructorArgs),
        explorers,
      ],
    );
  }

  /**
   * Claims up to `limit` due verifications of `chainIds` for `owner`; a claimed row is not due
   * again for `leaseMs` unless its holder renews it (`renew`), so a job that dies mid-way leaves
   * it to the next pass. Row-locked: jobs in several processes never claim one row twice, and a
   * job never claims a row it holds itself (a lapsed claim it still works on).
   */
  async claim(chainIds: string[], limit: number, leaseMs: number, owner: string): Promise<DueVerification[]> {
    const rows = await this.db.query<{
      chain_id: string;
      address: string;
      explorer: ExplorerName;
      artifact: string;
      constructor_args: string;
      attempts: number;
    }>(
      `UPDATE source_verifications v
         SET next_attempt_at = now() + make_interval(secs => $3::double precision / 1000), attempts = attempts + 1,
           claimed_by = $4
       FROM (SELECT chain_id, address, explorer FROM source_verifications
             WHERE status = 'pending' AND next_attempt_at <= now() AND chain_id = ANY($1)
               AND claimed_by IS DISTINCT FROM $4
             ORDER BY next_attempt_at FOR UPDATE SKIP LOCKED LIMIT $2) due
       WHERE v.chain_id = due.chain_id AND v.address = due.address AND v.explorer = due.explorer
       RETURNING v.*`,
      [chainIds, limit, leaseMs, owner],
    );
    return rows.map((r) => ({
      chainId: r.chain_id,
      address: r.address,
      explorer: r.explorer,
      artifact: r.artifact,
      constructorArgs: r.constructor_args,
      attempts: Number(r.attempts),
    }));
  }

  /** Extends `owner`'s claim by `leaseMs`; false when it is no longer `owner`'s (taken over, or settled). */
  async renew(v: DueVerification, owner: string, leaseMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE source_verifications SET next_attempt_at = now() + make_interval(secs => $5::double precision / 1000)
       WHERE chain_id = $1 AND address = $2 AND explorer = $3 AND claimed_by = $4 AND status = 'pending'
       RETURNING explorer`,
      [v.chainId, v.address, v.explorer, owner, leaseMs],
    );
    return rows.length === 1;
  }

  /** Gives `owner`'s claims back (due at once, for any job): claims a job could not settle while its database was away. */
  async release(owner: string): Promise<void> {
    await this.db.query(
      `UPDATE source_verifications SET claimed_by = NULL, next_attempt_at = now()
       WHERE claimed_by = $1 AND status = 'pending'`,
      [owner],
    );
  }

  /**
   * The explorer's final answer, written only while `owner` holds the claim: false when another
   * job took it over (its answer is the one kept).
   */
  async settle(
    v: DueVerification,
    owner: string,
    status: "verified" | "failed",
    url: string | null,
    reason: string | null,
  ): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE source_verifications SET status = $5, url = $6, reason = $7, claimed_by = NULL, updated_at = now()
       WHERE chain_id = $1 AND address = $2 AND explorer = $3 AND claimed_by = $4
       RETURNING explorer`,
      [v.chainId, v.address, v.explorer, owner, status, url, reason],
    );
    return rows.length === 1;
  }

  /** The explorer did not answer: asked again after `delayMs` (by any job); false as for `settle`. */
  async later(v: DueVerification, owner: string, reason: string, delayMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE source_verifications SET reason = $5, updated_at = now(), claimed_by = NULL,
         next_attempt_at = now() + make_interval(secs => $6::double precision / 1000)
       WHERE chain_id = $1 AND address = $2 AND explorer = $3 AND claimed_by = $4 AND status = 'pending'
       RETURNING explorer`,
      [v.chainId, v.address, v.explorer, owner, reason, delayMs],
    );
    return rows.length === 1;
  }

  /** A program's contracts with each explorer's state; `explorer` null for a contract with no explorer row. */
  async forProgram(programId: string): Promise<VerificationRow[]> {
    const rows = await this.db.query<{
      contract: string;
      address: string;
      explorer: ExplorerName | null;
      status: VerificationRow["status"];
      url: string | null;
      reason: string | null;
      attempts: number | null;
      next_attempt_at: Date | string | null;
    }>(
      `SELECT t.contract, t.address, v.explorer, v.status, v.url, v.reason, v.attempts, v.next_attempt_at
       FROM source_verification_targets t
       LEFT JOIN source_verifications v ON v.chain_id = t.chain_id AND v.address = t.address
       WHERE t.program_id = $1 ORDER BY t.contract, v.explorer`,
      [programId],
    );
    return rows.map((r) => ({
      contract: r.contract,
      address: r.address,
      explorer: r.explorer,
      status: r.status,
      url: r.url,
      reason: r.reason,
      attempts: Number(r.attempts ?? 0),
      nextAttemptAt: r.status === "pending" && r.next_attempt_at ? new Date(r.next_attempt_at).toISOString() : null,
    }));
  }
}
