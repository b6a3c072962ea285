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

/** Source verifications (migration 090_source_verification). */
export class VerifyStore {
  constructor(private readonly db: Db) {}

  /** Lists a program's contracts and queues each on each explorer, unless already there (shared release contracts). */
  async enqueue(programId: string, chainId: string, targets: NewTarget[], explorers: ExplorerName[]): Promise<void> {
    await this.db.transaction(async (tx) => {
      for (const t of targets) {
        await tx.query(
          `INSERT INTO source_verification_targets (program_id, chain_id, address, contract) VALUES ($1, $2, $3, $4)
           ON CONFLICT DO NOTHING`,
          [programId, chainId, t.address, t.contract],
        );
        for (const explorer of explorers) {
          await tx.query(
            `INSERT INTO source_verifications (chain_id, address, explorer, artifact, constructor_args, status)
             VALUES ($1, $2, $3, $4, $5, 'pending') ON CONFLICT DO NOTHING`,
            [chainId, t.address, explorer, t.artifact, t.constructorArgs],
          );
        }
      }
    });
  }

  /**
   * Claims up to `limit` due verifications of `chainIds`; a claimed row is not due again for
   * `leaseMs`, so a job that dies mid-way leaves it to the next pass. Row-locked: jobs in
   * several processes never claim one row twice.
   */
  async claim(chainIds: string[], limit: number, leaseMs: number): Promise<DueVerification[]> {
    const rows = await this.db.query<{
      chain_id: string;
      address: string;
      explorer: ExplorerName;
      artifact: string;
      constructor_args: string;
      attempts: number;
    }>(
      `UPDATE source_verifications v
         SET next_attempt_at = now() + make_interval(secs => $3::double precision / 1000), attempts = attempts + 1
       FROM (SELECT chain_id, address, explorer FROM source_verifications
             WHERE status = 'pending' AND next_attempt_at <= now() AND chain_id = ANY($1)
             ORDER BY next_attempt_at FOR UPDATE SKIP LOCKED LIMIT $2) due
       WHERE v.chain_id = due.chain_id AND v.address = due.address AND v.explorer = due.explorer
       RETURNING v.*`,
      [chainIds, limit, leaseMs],
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

  /** The explorer's final answer. */
  async settle(v: DueVerification, status: "verified" | "failed", url: string | null, reason: string | null) {
    await this.db.query(
      `UPDATE source_verifications SET status = $4, url = $5, reason = $6, updated_at = now()
       WHERE chain_id = $1 AND address = $2 AND explorer = $3`,
      [v.chainId, v.address, v.explorer, status, url, reason],
    );
  }

  /** The explorer did not answer: asked again after `delayMs`. */
  async later(v: DueVerification, reason: string, delayMs: number) {
    await this.db.query(
      `UPDATE source_verifications SET reason = $4, updated_at = now(),
         next_attempt_at = now() + make_interval(secs => $5::double precision / 1000)
       WHERE chain_id = $1 AND address = $2 AND explorer = $3 AND status = 'pending'`,
      [v.chainId, v.address, v.explorer, reason, delayMs],
    );
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
