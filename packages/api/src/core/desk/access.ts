import { getAddress, verifyTypedData } from "ethers";
import { deskTypedData } from "@points/schema";
import type { Caller } from "../auth/caller.js";
import { ownerOf } from "../auth/caller.js";
import type { Ctx } from "../context.js";
import { ApiError } from "../errors.js";
import { roleHash } from "../chain/contracts.js";
import { contract, read, target, type Target } from "../program/target.js";

/**
 * The program a desk route acts on, for this caller only: the tenant whose onboarding task
 * deployed it (API key or console account), the console account whose dashboard opens it (the
 * demo account of pnpm start), or an operator's admin key. Anyone else gets 404,
 * as if the program did not exist (docs/deployment.md#redemption-desk).
 */
export async function deskTarget(ctx: Ctx, caller: Caller, programId: string): Promise<Target> {
  const hidden = new ApiError("NOT_FOUND", `no program ${programId} on your redemption desk`);
  const owner = ownerOf(caller);
  if (!owner) throw new ApiError("UNAUTHORIZED", "the redemption desk needs an API key or a console session");
  const t = await target(ctx, programId).catch((e) => {
    throw e instanceof ApiError && e.code === "NOT_FOUND" ? hidden : e;
  });
  if (caller.kind === "key" && (await isAdminKey(ctx, caller.id))) return t;
  // The program the account's dashboard opens, as the server vouches for it: its own deploy or
  // pnpm start's demo program, which has no onboarding task.
  if (caller.kind === "session" && (await ctx.console.users.get(caller.email)).wizard.programId === t.program.id) {
    return t;
  }
  const owned = await ctx.db.query("SELECT 1 FROM onboarding_tasks WHERE program_id = $1 AND owner = $2", [
    t.program.id,
    owner,
  ]);
  if (!owned.length) throw hidden;
  return t;
}

async function isAdminKey(ctx: Ctx, id: string): Promise<boolean> {
  const rows = await ctx.db.query<{ scopes: string }>(
    "SELECT scopes FROM api_keys WHERE id = $1 AND revoked_at IS NULL",
    [id],
  );
  return rows[0]?.scopes.split(",").includes("admin") ?? false;
}

/** The longest a signed instruction may stay valid, so a leaked one dies soon. */
const MAX_VALIDITY_S = 3600;

/**
 * Checks that `manager` signed the instruction (EIP-712, {@link deskTypedData}) and holds
 * MANAGER_ROLE on the Factory now. Fails closed: a bad or expired signature is 403 FORBIDDEN,
 * a signer without the role 403 MISSING_ROLE.
 */
export async function requireManagerSignature(
  t: Target,
  signed: { manager: string; signature: string; signedUntil: number },
  instruction: Parameters<typeof deskTypedData>[2],
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  if (signed.signedUntil < now || signed.signedUntil > now + MAX_VALIDITY_S) {
    throw new ApiError("FORBIDDEN", "the signature has expired or is valid for more than an hour: sign again", {
      reason: "SIGNATURE_EXPIRED",
    });
  }
  const typed = deskTypedData(t.program.chainId, t.program.factory, instruction);
  let signer: string;
  try {
    signer = verifyTypedData(typed.domain, typed.types, typed.message, signed.signature);
  } catch {
    signer = "";
  }
  if (signer !== getAddress(signed.manager)) {
    throw new ApiError(
      "FORBIDDEN",
      `the signature is not ${getAddress(signed.manager)}'s signature of this instruction`,
      {
        reason: "INVALID_SIGNATURE",
      },
    );
  }
  const manager = roleHash("MANAGER_ROLE");
  const holds = await read(
    t,
    "factory",
    () => contract(t, "factory").getFunction("hasRole")(manager, signer) as Promise<boolean>,
  );
  if (!holds) {
    throw new ApiError("MISSING_ROLE", `${signer} lacks MANAGER_ROLE on the Factory`, {
      contract: "factory",
      role: "MANAGER_ROLE",
      account: signer,
    });
  }
  return signer;
}
