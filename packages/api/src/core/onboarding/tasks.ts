import { createHash, randomUUID } from "node:crypto";
import type { OnboardingRequest } from "@points/schema";
import type { Db, Queryable } from "../db/db.js";
import { releaseLease, takeLease } from "../db/leases.js";
import { ApiError } from "../errors.js";
import { countUnderQuota } from "./quota.js";
import type { TaskError } from "./taskError.js";

export type TaskStatus = "awaiting_approval" | "queued" | "running" | "succeeded" | "failed";

export interface Task {
  id: string;
  /** Who created it and may see it: an API key id or "session:<email>"; null when anonymous. */
  owner: string | null;
  request: OnboardingRequest;
  brand: string;
  chainId: string;
  status: TaskStatus;
  attempts: number;
  error: TaskError | null;
  predicted: Record<string, string | null> | null;
  programId: string | null;
  leaseOwner: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Row {
  id: string;
  owner: string | null;
  request: OnboardingRequest | string;
  brand: string;
  chain_id: string;
  status: TaskStatus;
  attempts: number;
  error: TaskError | string | null;
  predicted: Record<string, string | null> | string | null;
  program_id: string | null;
  lease_owner: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const json = <T>(v: T | string): T => (typeof v === "string" ? (JSON.parse(v) as T) : v);

const fromRow = (r: Row): Task => ({
  id: r.id,
  owner: r.owner,
  request: json(r.request),
  brand: r.brand,
  chainId: String(r.chain_id),
  status: r.status,
  attempts: Number(r.attempts),
  error: r.error === null ? null : json(r.error),
  predicted: r.predicted === null ? null : json(r.predicted),
  programId: r.program_id,
  leaseOwner: r.lease_owner,
  createdAt: new Date(r.created_at).toISOString(),
  updatedAt: new Date(r.updated_at).toISOString(),
});

/**
 * SQL: a failed task that no longer holds its brand. Past the retry window (`windowParam`, in
 * seconds), or refused before any send: anything the deployer's validate stage refuses (a bad request, an executor without funds,
 * an RPC that does not answer: validate sends nothing), or the operator's gas cap (GAS_CAP,
 * checked before a batch's first transaction). Such a task costs no reservation either.
 */
export const releasedFailedTask = (windowParam: string) =>
  // COALESCE: a task without a structured error would make the test NULL, and NOT NULL hides the task.
  `(status = 'failed' AND (updated_at < now() - make_interval(secs => ${windowParam})
     OR COALESCE(error->>'code' = 'GAS_CAP' OR error->>'stage' = 'validate', false)))`;

/** A stable hash of a request body, so an Idempotency-Key replay can be recognised. */
export function requestHash(body: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(canonical)
      : v && typeof v === "object"
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, canonical((v as Record<string, unknown>)[k])]),
          )
        : v;
  return createHash("sha256")
    .update(JSON.stringify(canonical(body)))
    .digest("hex");
}

/**
 * Onboarding tasks in the database. Claiming uses row locks (FOR UPDATE SKIP LOCKED) and
 * leases, never process memory, so several API instances and workers share one table.
 */
export class TaskRepo {
  /**
   * @param retryWindowSeconds how long a failed task keeps its brand for its owner's retry;
   * after it anyone may take the brand on that chain (the stale task is then deleted).
   */
  constructor(
    private readonly db: Db,
    private readonly retryWindowSeconds = 86_400,
  ) {}

  /**
   * Creates a queued task; the same Idempotency-Key with the same body returns the first
   * task, with another body is a CONFLICT; a brand already deployed or queued is a CONFLICT.
   */
  async create(opts: {
    owner: string | null;
    idempotencyKey?: string;
    request: OnboardingRequest;
    predicted: Record<string, string | null> | null;
    /** A deploy on a chain not marked testnet waits for the operator. */
    awaitApproval?: boolean;
    /** At most this many tasks of `owner` in 24 hours, counted under the owner's lock. */
    quotaPerDay?: number;
  }): Promise<{ task: Task; replayed: boolean }> {
    const hash = requestHash(opts.request);
    return this.db.transaction(async (tx) => {
      if (opts.idempotencyKey) {
        const prior = await tx.query<Row & { request_hash: string }>(
          "SELECT * FROM onboarding_tasks WHERE owner IS NOT DISTINCT FROM $1 AND idempotency_key = $2",
          [opts.owner, opts.idempotencyKey],
        );
        if (prior[0]) {
          if (prior[0].request_hash !== hash) {
            throw new ApiError("CONFLICT", "Idempotency-Key was already used with a different request body");
          }
          return { task: fromRow(prior[0]), replayed: true };
        }
      }
      if (opts.quotaPerDay !== undefined && opts.owner !== null) {
        await countUnderQuota(tx, opts.owner, opts.quotaPerDay);
      }
      const chainId = String(opts.request.chainId);
      await tx.query(
        `DELETE FROM onboarding_tasks WHERE chain_id = $1 AND brand = $2 AND ${releasedFailedTask("$3")}`,
        [chainId, opts.request.brand, this.retryWindowSeconds],
      );
      await this.requireBrandFree(tx, chainId, opts.request.brand, opts.owner);
      const rows = await tx.query<Row>(
        `INSERT INTO onboarding_tasks (id, owner, idempotency_key, request_hash, request, brand, chain_id, status, predicted)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $9, $8) RETURNING *`,
        [
          randomUUID(),
          opts.owner,
          opts.idempotencyKey ?? null,
          hash,
          JSON.stringify(opts.request),
          opts.request.brand,
          String(opts.request.chainId),
          opts.predicted ? JSON.stringify(opts.predicted) : null,
          opts.awaitApproval ? "awaiting_approval" : "queued",
        ],
      );
      return { task: fromRow(rows[0]), replayed: false };
    });
  }

  /** Only the owner of the task holding the brand learns its id and status; others learn the brand is taken. */
  private async requireBrandFree(q: Queryable, chainId: string, brand: string, owner: string | null) {
    const programs = await q.query("SELECT id FROM programs WHERE chain_id = $1 AND brand = $2", [chainId, brand]);
    if (programs.length) throw new ApiError("CONFLICT", `brand ${brand} already has a program on chain ${chainId}`);
    const tasks = await q.query<{ id: string; status: string; owner: string | null }>(
      "SELECT id, status, owner FROM onboarding_tasks WHERE chain_id = $1 AND brand = $2",
      [chainId, brand],
    );
    if (tasks.length) {
      const t = tasks[0];
      if (owner === null || t.owner !== owner) {
        throw new ApiError("CONFLICT", `brand ${brand} is already taken`);
      }
      const hint = t.status === "failed" ? ": retry it instead" : "";
      throw new ApiError("CONFLICT", `brand ${brand} already has deployment task ${t.id} (${t.status})${hint}`, {
        taskId: t.id,
        status: t.status,
      });
    }
  }

  async get(id: string): Promise<Task | undefined> {
    const rows = await this.db.query<Row>("SELECT * FROM onboarding_tasks WHERE id = $1", [id]);
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  async list(owner: string | null, chainId?: string): Promise<Task[]> {
    const rows = await this.db.query<Row>(
      `SELECT * FROM onboarding_tasks WHERE owner IS NOT DISTINCT FROM $1 AND ($2::text IS NULL OR chain_id = $2)
       ORDER BY created_at DESC LIMIT 200`,
      [owner, chainId ?? null],
    );
    return rows.map(fromRow);
  }

  /**
   * Claims the oldest runnable task of `chainId`: queued, or running with an expired lease
   * (its worker died). Row-locked so two workers never claim the same task. Never a task whose
   * lease `workerId` itself holds: a live worker that renewed late is still running it, and
   * claiming it again would start a second attempt beside the first. A lease that ends at this
   * claim's now() has ended: a release sets the end to now(), and PGlite's clock moves in whole
   * milliseconds, so a claim right after a release often reads the same now().
   */
  async claim(chainId: string, workerId: string, leaseMs: number): Promise<Task | undefined> {
    const rows = await this.db.query<Row>(
      `UPDATE onboarding_tasks
         SET status = 'running', lease_owner = $2, lease_expires_at = now() + make_interval(secs => $3::double precision / 1000),
             attempts = attempts + 1, error = NULL, updated_at = now()
       WHERE id = (
         SELECT id FROM onboarding_tasks
         WHERE chain_id = $1
           AND (status = 'queued' OR (status = 'running' AND lease_expires_at <= now() AND lease_owner IS DISTINCT FROM $2))
         ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1)
       RETURNING *`,
      [chainId, workerId, leaseMs],
    );
    return rows[0] ? fromRow(rows[0]) : undefined;
  }

  /** Extends the lease; false when another worker took the task over. */
  async renew(id: string, workerId: string, leaseMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE onboarding_tasks SET lease_expires_at = now() + make_interval(secs => $3::double precision / 1000)
       WHERE id = $1 AND lease_owner = $2 AND status = 'running' RETURNING id`,
      [id, workerId, leaseMs],
    );
    return rows.length === 1;
  }

  async finish(id: string, workerId: string, result: { programId: string } | { error: TaskError }): Promise<void> {
    if ("programId" in result) {
      await this.db.query(
        `UPDATE onboarding_tasks SET status = 'succeeded', program_id = $3, lease_owner = NULL, lease_expires_at = NULL,
           updated_at = now() WHERE id = $1 AND lease_owner = $2`,
        [id, workerId, result.programId],
      );
    } else {
      await this.db.query(
        `UPDATE onboarding_tasks SET status = 'failed', error = $3, lease_owner = NULL, lease_expires_at = NULL,
           updated_at = now() WHERE id = $1 AND lease_owner = $2`,
        [id, workerId, JSON.stringify(result.error)],
      );
    }
  }

  async setPredicted(id: string, predicted: Record<string, string | null>): Promise<void> {
    await this.db.query("UPDATE onboarding_tasks SET predicted = $2, updated_at = now() WHERE id = $1", [
      id,
      JSON.stringify(predicted),
    ]);
  }

  /** A failed task goes back to the queue; running it again resumes from the chain. */
  async retry(id: string): Promise<Task> {
    const rows = await this.db.query<Row>(
      `UPDATE onboarding_tasks SET status = 'queued', updated_at = now() WHERE id = $1 AND status = 'failed' RETURNING *`,
      [id],
    );
    if (rows[0]) return fromRow(rows[0]);
    const task = await this.get(id);
    if (!task) throw new ApiError("NOT_FOUND", `no deployment task ${id}`);
    throw new ApiError("CONFLICT", `task ${id} is ${task.status}: only a failed task can be retried`);
  }

  /** The operator lets a task awaiting approval run. */
  async approve(id: string): Promise<Task> {
    const rows = await this.db.query<Row>(
      `UPDATE onboarding_tasks SET status = 'queued', updated_at = now()
       WHERE id = $1 AND status = 'awaiting_approval' RETURNING *`,
      [id],
    );
    if (rows[0]) return fromRow(rows[0]);
    const task = await this.get(id);
    if (!task) throw new ApiError("NOT_FOUND", `no deployment task ${id}`);
    throw new ApiError("CONFLICT", `task ${id} is ${task.status}: only a task awaiting approval can be approved`);
  }

  /**
   * Frees a brand held by a task that will not run (failed, or still awaiting approval), on
   * every chain or on `only.chainId`: the task is deleted, so anyone may deploy the brand
   * there. Returns the deleted task ids.
   * Queued, running and succeeded tasks keep their brand.
   */
  async releaseBrand(brand: string, only: { taskId?: string; chainId?: string } = {}): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `DELETE FROM onboarding_tasks WHERE brand = $1 AND ($2::text IS NULL OR id = $2)
         AND ($3::text IS NULL OR chain_id = $3) AND status IN ('failed', 'awaiting_approval') RETURNING id`,
      [brand, only.taskId ?? null, only.chainId ?? null],
    );
    return rows.map((r) => r.id);
  }

  /** Tasks waiting for the operator, oldest first. */
  async awaitingApproval(): Promise<Task[]> {
    const rows = await this.db.query<Row>(
      "SELECT * FROM onboarding_tasks WHERE status = 'awaiting_approval' ORDER BY created_at LIMIT 500",
    );
    return rows.map(fromRow);
  }

  /**
   * Takes (or keeps) the right to send with a chain's executor key: one worker per chain at a
   * time, so its nonces are managed in one process.
   */
  leaseExecutor(chainId: string, workerId: string, leaseMs: number): Promise<boolean> {
    return takeLease(this.db, "executor_leases", chainId, workerId, leaseMs);
  }

  /** Gives `workerId`'s executor lease of `chainId` back; another worker's lease is left alone. */
  releaseExecutor(chainId: string, workerId: string): Promise<void> {
    return releaseLease(this.db, "executor_leases", chainId, workerId);
  }

  /**
   * Ends the lease of one task `workerId` claimed and will not run (claimed as it stopped, or
   * given up when its renewals kept failing): any worker, `workerId` too, claims it at once.
   * Another worker's task is left alone.
   */
  async releaseTask(id: string, workerId: string): Promise<void> {
    await this.db.query(
      // The holder too may claim it again (a worker that gave a task up is no longer running it).
      `UPDATE onboarding_tasks SET lease_expires_at = now(), lease_owner = NULL
       WHERE id = $1 AND lease_owner = $2 AND status = 'running'`,
      [id, workerId],
    );
  }

  /**
   * Ends the leases of the tasks `workerId` still holds (a stopping worker's tasks that did not
   * finish in the drain): another worker claims and resumes them at once, not when the lease
   * would have run out. Another worker's tasks are left alone. Answers the ids released.
   */
  async releaseTasks(workerId: string): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `UPDATE onboarding_tasks SET lease_expires_at = now()
       WHERE lease_owner = $1 AND status = 'running' RETURNING id`,
      [workerId],
    );
    return rows.map((r) => r.id);
  }
}
