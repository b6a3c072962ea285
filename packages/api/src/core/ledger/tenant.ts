import type { Ctx } from "../context.js";
import type { Caller } from "../auth/caller.js";
import { ownerOf } from "../auth/caller.js";
import { ApiError, notFound } from "../errors.js";
import type { Program } from "../registry/programs.js";

/**
 * Whether `caller` may read the ledger of `program` (docs/architecture.md#the-ledger). A
 * program deployed through onboarding belongs to the task's owner (an API key or a console
 * account): only that owner and admin keys read its ledger. A program the operator registered
 * (no onboarding task) is the operator's and readable by every read key. A console session
 * reads its own account's program only (the one the server names in its wizard), never one it
 * merely knows the id of.
 */
export async function mayRead(ctx: Ctx, program: Program, caller: Caller): Promise<boolean> {
  if (caller.kind === "session") return (await sessionProgram(ctx, caller.email)) === program.id;
  const owners = await ctx.db.query<{ owner: string }>(
    "SELECT owner FROM onboarding_tasks WHERE program_id = $1 AND status = 'succeeded'",
    [program.id],
  );
  if (owners.length === 0) return true;
  const me = ownerOf(caller);
  if (me !== undefined && owners.some((o) => o.owner === me)) return true;
  if (caller.kind !== "key") return false;
  const [key] = await ctx.db.query<{ scopes: string }>(
    "SELECT scopes FROM api_keys WHERE id = $1 AND revoked_at IS NULL",
    [caller.id],
  );
  return key !== undefined && key.scopes.split(",").includes("admin");
}

/**
 * Refuses another tenant's program with the very answer an unknown program gets, so a key
 * learns nothing about programs it may not read.
 */
export async function requireReadable(ctx: Ctx, program: Program, caller: Caller, ref: string | undefined) {
  if (!(await mayRead(ctx, program, caller))) {
    throw notFound(
      ref === undefined
        ? "no program is registered yet: deploy one first"
        : `no program with id or factory address ${ref}`,
    );
  }
}

/** The program a console account's dashboard runs (its own deploy, or the demo program), if any. */
async function sessionProgram(ctx: Ctx, email: string): Promise<string | null> {
  try {
    return (await ctx.console.users.get(email)).wizard.programId;
  } catch (e) {
    // An account that no longer exists reads nothing; any other failure is not a "no".
    if (e instanceof ApiError && e.code === "UNAUTHORIZED") return null;
    throw e;
  }
}
