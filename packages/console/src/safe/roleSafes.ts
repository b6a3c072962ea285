import { Contract, type BrowserProvider } from "ethers";
import { roleHash } from "@points/contracts/program";
import type { ContractName, RoleName } from "@points/schema";
import type { PointsClient } from "@points/sdk";
import type { ProgramView } from "../api/programView";
import { HANDOVER_CONTRACTS, readAdmins, readSafe, type SafeInfo } from "./safeChain";

const ADMIN = "DEFAULT_ADMIN_ROLE";

/** One role on one program contract. */
export interface RoleOn {
  contract: ContractName;
  role: RoleName;
}

/** A Safe that holds roles on the program's contracts (docs/architecture.md#safe-multisig). */
export interface RoleSafe extends SafeInfo {
  roles: RoleOn[];
}

const same = (a: RoleOn, b: RoleOn) => a.contract === b.contract && a.role === b.role;

/**
 * Every Safe that holds a role on the program: the candidates are the role holders the ledger
 * lists plus each contract's admin read from the chain (fresh right after a handover); a
 * candidate counts as a Safe only when its code answers the Safe's views on chain.
 */
export async function readRoleSafes(
  provider: BrowserProvider,
  client: PointsClient,
  program: ProgramView,
): Promise<RoleSafe[]> {
  const held = new Map<string, RoleOn[]>();
  const add = (account: string, r: RoleOn) => {
    const list = held.get(account) ?? [];
    if (!list.some((x) => same(x, r))) list.push(r);
    held.set(account, list);
  };
  for (const a of await readAdmins(provider, program)) add(a.admin, { contract: a.contract, role: ADMIN });
  // The ledger may be down or behind: the chain's admins are still found.
  const ledger = await client.ledger.roles().catch(() => null);
  for (const c of ledger?.contracts ?? [])
    for (const r of c.roles) for (const h of r.holders) add(h, { contract: c.contract, role: r.role as RoleName });
  const safes = await Promise.all(
    [...held].map(async ([account, roles]) => {
      const safe = await readSafe(provider, account);
      return safe && { ...safe, roles: await withVaultRolesFromChain(provider, program, account, roles) };
    }),
  );
  return safes.filter((s): s is RoleSafe => s !== null);
}

const HAS_ROLE = ["function hasRole(bytes32 role, address account) view returns (bool)"];

/**
 * The Campaign vault roles that choose which Safe runs an action, as the chain answers them:
 * the ledger lags a block or more behind a proposal that just granted or revoked one.
 */
async function withVaultRolesFromChain(
  provider: BrowserProvider,
  program: ProgramView,
  account: string,
  roles: RoleOn[],
): Promise<RoleOn[]> {
  const vault = new Contract(program.pspVault, HAS_ROLE, provider).getFunction("hasRole");
  const deciding = [...new Set(Object.values(NEEDS).flatMap((needs) => needs.map((n) => n.role)))];
  const held = await Promise.all(deciding.map((role) => vault(roleHash(role), account) as Promise<boolean>));
  const fromChain = deciding.filter((_, i) => held[i]).map((role) => ({ contract: "pspVault" as const, role }));
  const others = roles.filter((r) => !(r.contract === "pspVault" && deciding.includes(r.role)));
  return [...others, ...fromChain];
}

const vault = (role: RoleName): RoleOn => ({ contract: "pspVault", role });
/**
 * The roles each Campaign vault action accepts, preferred first: its own role, then MANAGER_ROLE
 * (which the vault accepts for every one of them).
 */
export const NEEDS = {
  createCampaign: [vault("CAMPAIGN_ADMIN_ROLE"), vault("MANAGER_ROLE")],
  issue: [vault("ISSUING_ADMIN_ROLE"), vault("MANAGER_ROLE")],
  settleOrExpire: [vault("SETTLEMENT_ADMIN_ROLE"), vault("MANAGER_ROLE")],
  transfer: [vault("TRANSFER_ADMIN_ROLE"), vault("MANAGER_ROLE")],
} satisfies Record<string, RoleOn[]>;

/** Who runs an action: a Safe (proposed, for the role it holds) or the wallet itself (safe null). */
export interface Acting {
  from: string | null;
  safe: RoleSafe | null;
  role: RoleOn | null;
}

/**
 * The Safe an action runs from: the first of `needs` (in order of preference) that a Safe
 * owned by `wallet` holds; null when none does, and the wallet sends the action itself.
 */
export function safeFor(safes: RoleSafe[], wallet: string | null, needs: RoleOn[]): Acting | null {
  if (!wallet) return null;
  const owned = safes.filter((s) => s.owners.includes(wallet));
  for (const need of needs) {
    const safe = owned.find((x) => x.roles.some((r) => same(r, need)));
    if (safe) return { from: safe.address, safe, role: need };
  }
  return null;
}

/** The Safe that administers all four handover contracts (the program's admin Safe), or null. */
export const adminSafe = (safes: RoleSafe[]): RoleSafe | null =>
  safes.find((s) => HANDOVER_CONTRACTS.every((contract) => s.roles.some((r) => same(r, { contract, role: ADMIN })))) ??
  null;
