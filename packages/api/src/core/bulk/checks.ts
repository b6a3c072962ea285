import type { Target } from "../program/target.js";
import { contract, read } from "../program/target.js";
import { ApiError } from "../errors.js";
import { revertToApiError, type RevertError } from "../chain/revert.js";
import { chainUnavailable } from "../chain/client.js";
import type { Checked } from "./plan.js";
import type { Row } from "./rows.js";

const max0 = (v: bigint) => (v > 0n ? v : 0n);

/**
 * Mint: the campaign's budget and the signer's delegated-minter limit against the total, and
 * whether the issuance rules admit the total at all: a single mint of the whole total is
 * simulated as the signer, which is exactly what the batch forms check once (docs/rules.md#batch-forms).
 * A missing authority (MISSING_ROLE, MinterNotAuthorized) is never a dry-run finding: it is the answer.
 */
export async function checkMint(t: Target, id: string, rows: Row[], from: string): Promise<Checked> {
  const vault = contract(t, "pspVault");
  const total = rows.reduce((s, r) => s + r.amount, 0n);
  const [campaign, config, blocked] = await Promise.all([
    read(t, "pspVault", () => vault.getFunction("getCampaign")(id)),
    read(t, "pspVault", () => vault.getFunction("getMinterConfig")(id, from)),
    simulate(t, () => vault.getFunction("mint").estimateGas(id, rows[0].address, total, "", { from })),
  ]);
  const available = BigInt(campaign.available);
  const [limit, issued, active] = [BigInt(config[0]), BigInt(config[1]), Boolean(config[2])];
  const isMinter = active || limit > 0n || issued > 0n;
  return {
    budget: { available: available.toString(), shortfall: max0(total - available).toString() },
    ...(isMinter && {
      minter: { limit: limit.toString(), issued: issued.toString(), active, headroom: max0(limit - issued).toString() },
    }),
    blocked,
    notAllowed: [],
    probe: mintProbe(rows),
  };
}

/**
 * Settle and expire: every row's pSP balance against its amount (rows holding less are listed,
 * not simulated), and for settle whether the receiver is on the settlement allowlist.
 */
export async function checkBurn(
  t: Target,
  id: string,
  rows: Row[],
  receiver: string | undefined,
  from: string,
): Promise<Checked> {
  const vault = contract(t, "pspVault");
  const first = rows[0];
  const [balances, allowed, refused] = await Promise.all([
    read(t, "pspVault", () =>
      Promise.all(rows.map((r) => vault.getFunction("balanceOf")(id, r.address) as Promise<bigint>)),
    ),
    receiver === undefined
      ? true
      : read(t, "pspVault", () => vault.getFunction("isSettlementWhitelisted")(id, receiver)),
    // The first row alone as the signer: a missing role is the answer whatever the balances.
    simulate(t, () =>
      receiver === undefined
        ? vault.getFunction("expire").estimateGas(first.address, first.amount, id, "", { from })
        : vault.getFunction("settle").estimateGas(first.address, receiver, first.amount, id, "", { from }),
    ),
  ]);
  const notAllowed: Checked["notAllowed"] = [];
  const probe: Row[] = [];
  rows.forEach((r, i) => {
    const balance = BigInt(balances[i]);
    if (balance < r.amount) {
      notAllowed.push({
        row: r.row,
        address: r.address,
        reason: "insufficientBalance",
        balance: balance.toString(),
        amount: r.amount.toString(),
      });
    } else probe.push(r);
  });
  // Row-level refusals are listed above; anything else (a paused vault) refuses the drop as a whole.
  const rowLevel = ["InsufficientPSPBalance", "SettlementReceiverNotWhitelisted"];
  const blocked = allowed
    ? refused && !rowLevel.includes(refused.revert?.name ?? "")
      ? refused
      : undefined
    : new ApiError("WOULD_REVERT", `the transaction would revert: pspVault.SettlementReceiverNotWhitelisted`, {
        contract: "pspVault",
        name: "SettlementReceiverNotWhitelisted",
        args: { campaignId: id, receiver },
      });
  return { blocked, notAllowed, probe: allowed ? probe : [] };
}

/** A simulation whose revert is a finding (returned), except a missing role (thrown). */
async function simulate(t: Target, fn: () => Promise<unknown>): Promise<RevertError | undefined> {
  try {
    await fn();
    return undefined;
  } catch (e) {
    const reverted = revertToApiError(e, "build", "pspVault");
    if (!reverted) chainUnavailable(e, t.chain.config);
    // No authority at all is the answer, never a finding (the single mint answers the same).
    if (reverted.code === "MISSING_ROLE" || reverted.revert?.name === "MinterNotAuthorized") throw reverted;
    return reverted;
  }
}

/** Mint's gas probe: the rows with amounts of 1 wei (a row's gas does not depend on the budget left). */
export const mintProbe = (rows: Row[]): Row[] => rows.slice(0, 40).map((r) => ({ ...r, amount: 1n }));
