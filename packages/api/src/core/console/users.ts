import { getAddress } from "ethers";
import { Wizard as WizardShape } from "@points/schema";
import type { Wizard } from "@points/schema";
import type { Db, Queryable } from "../db/db.js";
import { ApiError } from "../errors.js";

/** A wizard at step 1 with nothing entered: every other field of the schema's Wizard is null. */
export const EMPTY_WIZARD = Object.fromEntries(
  Object.keys(WizardShape.shape).map((field) => [field, field === "step" ? 1 : null]),
) as Wizard;

export interface ConsoleUser {
  email: string;
  wallet: string | null;
  wizard: Wizard;
}

interface Row {
  email: string;
  wallet: string | null;
  wizard: Partial<Wizard> | string;
}

/**
 * A wizard key only server code writes (`pnpm start`'s demo account, see devProgram.ts): the
 * PUT body is a strict object without it, and it never appears in an answer.
 */
const ATTACHED = "attachedProgramId";
type Stored = Wizard & { [ATTACHED]?: string };

const parse = (w: Row["wizard"]): Stored => {
  const raw = (typeof w === "string" ? JSON.parse(w) : w) as Record<string, unknown>;
  const known = Object.fromEntries(Object.keys(EMPTY_WIZARD).map((k) => [k, raw[k] ?? null])) as Wizard;
  return typeof raw[ATTACHED] === "string" ? { ...known, [ATTACHED]: raw[ATTACHED] } : known;
};

/** Steps 8 (contracts) and 9 (dashboard) show a program: the server opens them, never the client. */
const FIRST_PROGRAM_STEP = 8;

/** Console users (by e-mail) and the wizard progress each keeps on the server. */
export class ConsoleUsers {
  constructor(private readonly db: Db) {}

  /**
   * The task `taskId` when this account created it; another account's task does not exist for
   * it. Read with `q` so a caller's transaction does not wait on a second connection.
   */
  private async ownedTask(q: Queryable, email: string, taskId: string) {
    const [task] = await q.query<{ status: string; program_id: string | null }>(
      "SELECT status, program_id FROM onboarding_tasks WHERE id = $1 AND owner = $2",
      [taskId, `session:${email}`],
    );
    return task;
  }

  /**
   * The wizard as the server vouches for it: the program is the one the account's own deploy
   * task created (see docs/deployment.md#onboarding-over-http), and the steps that show a program
   * stay closed until it exists. A programId or step a client stored earlier counts for nothing.
   */
  private async vouch(q: Queryable, email: string, stored: Stored): Promise<Wizard> {
    const { [ATTACHED]: attached, ...w } = stored;
    const task = w.taskId ? await this.ownedTask(q, email, w.taskId) : undefined;
    const programId = attached ?? (task?.status === "succeeded" ? task.program_id : null);
    const step = programId ? w.step : Math.min(w.step, w.taskId ? FIRST_PROGRAM_STEP - 1 : FIRST_PROGRAM_STEP - 2);
    return { ...w, programId, step };
  }

  /** Creates the user at first sign-in; later sign-ins keep everything. */
  async ensure(email: string): Promise<void> {
    await this.db.query("INSERT INTO console_users (email, wizard) VALUES ($1, $2) ON CONFLICT (email) DO NOTHING", [
      email,
      JSON.stringify(EMPTY_WIZARD),
    ]);
  }

  async get(email: string): Promise<ConsoleUser> {
    const [row] = await this.db.query<Row>("SELECT email, wallet, wizard FROM console_users WHERE email = $1", [email]);
    if (!row) throw new ApiError("UNAUTHORIZED", "sign in to the console first");
    return { email: row.email, wallet: row.wallet, wizard: await this.vouch(this.db, email, parse(row.wizard)) };
  }

  /**
   * Merges `update` into the saved wizard (top-level fields replace). Once a deploy task is
   * recorded, the chain and the task are fixed: changing them needs a restart. The task must be
   * the account's own (404 otherwise); steps 8 and 9 open only once that task made a program.
   */
  async saveWizard(email: string, update: Partial<Omit<Wizard, "programId">>): Promise<Wizard> {
    if (typeof update.taskId === "string" && !(await this.ownedTask(this.db, email, update.taskId))) {
      throw new ApiError("NOT_FOUND", `no deployment task ${update.taskId} of this account`, { field: "taskId" });
    }
    return this.db.transaction(async (tx) => {
      const [row] = await tx.query<Row>("SELECT email, wallet, wizard FROM console_users WHERE email = $1 FOR UPDATE", [
        email,
      ]);
      if (!row) throw new ApiError("UNAUTHORIZED", "sign in to the console first");
      const current = parse(row.wizard);
      if (current.taskId !== null) {
        if (update.chainId !== undefined && update.chainId !== current.chainId) {
          throw new ApiError(
            "CONFLICT",
            "the deploy has started on this chain: sign out and restart to change the chain",
            {
              field: "chainId",
              chainId: current.chainId,
              taskId: current.taskId,
            },
          );
        }
        if (update.taskId !== undefined && update.taskId !== current.taskId) {
          throw new ApiError("CONFLICT", "a deploy is already recorded: sign out and restart to start another", {
            field: "taskId",
            taskId: current.taskId,
          });
        }
      }
      // programId is never stored: vouch() derives it from the task on every read.
      const next: Stored = { ...current, ...stripUndefined(update), programId: null };
      if (next.wallet) next.wallet = getAddress(next.wallet);
      const vouched = await this.vouch(tx, email, next);
      if (update.step !== undefined && update.step >= FIRST_PROGRAM_STEP && vouched.step !== update.step) {
        throw new ApiError("CONFLICT", "the program does not exist yet: its deploy task has not succeeded", {
          field: "step",
          taskId: next.taskId,
        });
      }
      await tx.query(
        "UPDATE console_users SET wizard = $2, wallet = COALESCE($3, wallet), updated_at = now() WHERE email = $1",
        [email, JSON.stringify(next), next.wallet],
      );
      return vouched;
    });
  }

  /**
   * Opens `programId` on this account's dashboard without a deploy task: only for `pnpm start`'s
   * demo account (devProgram.ts checks the chain and host); restarting the wizard detaches it.
   */
  async attachProgram(email: string, programId: string, wizard: Partial<Wizard>): Promise<void> {
    const stored: Stored = { ...EMPTY_WIZARD, ...wizard, step: 9, programId: null, [ATTACHED]: programId };
    await this.db.query(
      `INSERT INTO console_users (email, wallet, wizard) VALUES ($1, $2, $3)
       ON CONFLICT (email) DO UPDATE SET wizard = $3, wallet = $2, updated_at = now()`,
      [email, stored.wallet, JSON.stringify(stored)],
    );
  }

  /** Lets the account deploy (an operator's decision); false when no such account exists. */
  async approveDeploys(email: string, approved = true): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE console_users SET deploy_approved_at = ${approved ? "COALESCE(deploy_approved_at, now())" : "NULL"},
         updated_at = now() WHERE email = $1 RETURNING email`,
      [email.toLowerCase()],
    );
    return rows.length === 1;
  }

  async deployApproved(email: string): Promise<boolean> {
    const [row] = await this.db.query<{ ok: boolean }>(
      "SELECT deploy_approved_at IS NOT NULL AS ok FROM console_users WHERE email = $1",
      [email],
    );
    return Boolean(row?.ok);
  }

  /** Accounts and whether each may deploy, for the operator. */
  async list(): Promise<{ email: string; deployApproved: boolean; createdAt: string }[]> {
    const rows = await this.db.query<{ email: string; ok: boolean; created_at: Date | string }>(
      "SELECT email, deploy_approved_at IS NOT NULL AS ok, created_at FROM console_users ORDER BY created_at",
    );
    return rows.map((r) => ({ email: r.email, deployApproved: r.ok, createdAt: new Date(r.created_at).toISOString() }));
  }

  /** Back to step 1 with nothing entered; the user's last wallet is kept on the account. */
  async restartWizard(email: string): Promise<Wizard> {
    const rows = await this.db.query(
      "UPDATE console_users SET wizard = $2, updated_at = now() WHERE email = $1 RETURNING email",
      [email, JSON.stringify(EMPTY_WIZARD)],
    );
    if (rows.length === 0) throw new ApiError("UNAUTHORIZED", "sign in to the console first");
    return { ...EMPTY_WIZARD };
  }
}

const stripUndefined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
