import type { Db } from "../db/db.js";

export type DeskPolicy = "automatic" | "manual" | "off";

export interface DeskDecision {
  requestId: string;
  decision: "approve" | "reject";
  reason: string;
  decidedBy: string;
  status: "queued" | "sent" | "failed";
  txHash: string | null;
  error: string | null;
}

interface DecisionRow {
  request_id: string | number;
  decision: "approve" | "reject";
  reason: string;
  decided_by: string;
  status: "queued" | "sent" | "failed";
  tx_hash: string | null;
  error: string | null;
}

const fromRow = (r: DecisionRow): DeskDecision => ({
  requestId: String(r.request_id),
  decision: r.decision,
  reason: r.reason,
  decidedBy: r.decided_by,
  status: r.status,
  txHash: r.tx_hash,
  error: r.error,
});

/** Policies and decisions of the redemption desk (migration 070_redemption_desk). */
export class DeskStore {
  constructor(private readonly db: Db) {}

  /** The program's policy and version; "off" at version 0 when none was ever set. */
  async policy(programId: string): Promise<{ policy: DeskPolicy; version: number }> {
    const rows = await this.db.query<{ policy: DeskPolicy; version: number }>(
      "SELECT policy, version FROM redemption_desks WHERE program_id = $1",
      [programId],
    );
    return rows[0] ? { policy: rows[0].policy, version: Number(rows[0].version) } : { policy: "off", version: 0 };
  }

  /** Sets the policy if the version is still `version`; false when another change came first. */
  async setPolicy(programId: string, policy: DeskPolicy, version: number, setBy: string): Promise<boolean> {
    const rows =
      version === 0
        ? await this.db.query(
            // A row at version 0 holds only the operator's bounds: the first policy takes it over.
            `INSERT INTO redemption_desks (program_id, policy, version, set_by) VALUES ($1, $2, 1, $3)
             ON CONFLICT (program_id) DO UPDATE SET policy = $2, version = 1, set_by = $3, updated_at = now()
             WHERE redemption_desks.version = 0 RETURNING program_id`,
            [programId, policy, setBy],
          )
        : await this.db.query(
            `UPDATE redemption_desks SET policy = $2, version = version + 1, set_by = $4, updated_at = now()
             WHERE program_id = $1 AND version = $3 RETURNING program_id`,
            [programId, policy, version, setBy],
          );
    return rows.length === 1;
  }

  /** Programs whose desk has work: an automatic policy, or queued decisions. */
  async active(): Promise<{ programId: string; policy: DeskPolicy }[]> {
    const rows = await this.db.query<{ program_id: string; policy: DeskPolicy }>(
      `SELECT program_id, policy FROM redemption_desks WHERE policy <> 'off'
       UNION SELECT d.program_id, COALESCE(k.policy, 'off') FROM redemption_decisions d
       LEFT JOIN redemption_desks k ON k.program_id = d.program_id WHERE d.status = 'queued'`,
    );
    const seen = new Map<string, DeskPolicy>();
    for (const r of rows) if (!seen.has(r.program_id) || r.policy !== "off") seen.set(r.program_id, r.policy);
    return [...seen].map(([programId, policy]) => ({ programId, policy }));
  }

  /** Records a decision; undefined when the request already has one. */
  async decide(
    programId: string,
    d: Omit<DeskDecision, "status" | "txHash" | "error">,
  ): Promise<DeskDecision | undefined> {
    const rows = await this.db.query<DecisionRow>(
      `INSERT INTO redemption_decisions (program_id, request_id, decision, reason, decided_by, status)
       VALUES ($1, $2, $3, $4, $5, 'queued') ON CONFLICT (program_id, request_id) DO NOTHING RETURNING *`,
      [programId, d.requestId, d.decision, d.reason, d.decidedBy],
    );
    return rows[0] && fromRow(rows[0]);
  }

  async decisions(programId: string, status?: DeskDecision["status"]): Promise<DeskDecision[]> {
    const rows = await this.db.query<DecisionRow>(
      `SELECT * FROM redemption_decisions WHERE program_id = $1 AND ($2::text IS NULL OR status = $2)
       ORDER BY request_id`,
      [programId, status ?? null],
    );
    return rows.map(fromRow);
  }

  async settle(
    programId: string,
    requestIds: string[],
    status: "sent" | "failed",
    txHash: string | null,
    error: string | null,
  ) {
    if (requestIds.length === 0) return;
    await this.db.query(
      `UPDATE redemption_decisions SET status = $3, tx_hash = $4, error = $5
       WHERE program_id = $1 AND request_id = ANY($2::numeric[]) AND status = 'queued'`,
      [programId, requestIds, status, txHash, error],
    );
  }
}
