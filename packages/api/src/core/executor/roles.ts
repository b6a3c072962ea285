import { Contract, Interface, ZeroHash, getAddress, id } from "ethers";
import type { ExecutorWallet } from "@points/signers";
import type { Db } from "../db/db.js";
import type { ChainClient } from "../chain/client.js";
import { readSafe, type SafeState } from "../chain/safe.js";
import { ProgramRegistry } from "../registry/programs.js";
import { DbManifestStore } from "../onboarding/store.js";

/** The roles the service's executor holds (packages/api/README.md#rotating-the-executor-key). */
export const ROLE_NAMES: Record<string, string> = {
  [id("EXECUTOR_ROLE")]: "EXECUTOR_ROLE",
  [id("OPERATOR_ROLE")]: "OPERATOR_ROLE",
  [id("MANAGER_ROLE")]: "MANAGER_ROLE",
  [ZeroHash]: "DEFAULT_ADMIN_ROLE",
};
export const roleName = (role: string) => ROLE_NAMES[role] ?? role;

export const ACCESS = new Interface([
  "function hasRole(bytes32 role, address account) view returns (bool)",
  "function getRoleAdmin(bytes32 role) view returns (bytes32)",
  "function grantRole(bytes32 role, address account)",
  "function revokeRole(bytes32 role, address account)",
  "function renounceRole(bytes32 role, address callerConfirmation)",
  "function defaultAdmin() view returns (address)",
  "event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)",
]);

/** One role of one contract the executor may hold. */
export interface Slot {
  contract: string;
  /** "Factory acme" or "ProgramFactory": what an operator reads in the plan. */
  label: string;
  role: string;
  /** Where the contract's RoleGranted logs start (its deploy block when known). */
  fromBlock: number;
  /** Who else may administer it, besides the keys held and the RoleGranted logs (a release's deployer). */
  hints: string[];
}

/**
 * Every role the executor of `chainId` may hold: EXECUTOR_ROLE on each registered program's
 * Factory (administered by the program's MANAGER_ROLE), OPERATOR_ROLE and DEFAULT_ADMIN_ROLE on
 * each ProgramFactory those programs came from and on the chain's recorded releases.
 */
export async function executorSlots(db: Db, chainId: string): Promise<Slot[]> {
  const registry = new ProgramRegistry(db);
  const programs = await registry.listByChain(chainId);
  const slots: Slot[] = programs.map((p) => ({
    contract: p.factory,
    label: `Factory ${p.id}`,
    role: id("EXECUTOR_ROLE"),
    fromBlock: p.blockNumber ?? 0,
    hints: [],
  }));
  const releases = await new DbManifestStore(db).getReleases(BigInt(chainId));
  const factories = new Map<string, string[]>();
  for (const r of releases) factories.set(getAddress(r.programFactory), [getAddress(r.deployer)]);
  for (const pf of await registry.releasesOnChain(chainId)) if (!factories.has(pf)) factories.set(pf, []);
  for (const [pf, hints] of factories) {
    // OPERATOR_ROLE first: retiring renounces it before the admin role that could grant it back.
    // Its deploy block is not recorded: its logs are read from the chain's start.
    for (const role of [id("OPERATOR_ROLE"), ZeroHash])
      slots.push({ contract: pf, label: "ProgramFactory", role, fromBlock: 0, hints });
  }
  return slots;
}

export const hasRole = async (chain: ChainClient, contract: string, role: string, account: string) =>
  (await new Contract(contract, ACCESS, chain.provider).getFunction("hasRole")(role, account)) as boolean;

/** How one role change gets signed. */
export type Route =
  | { how: "send"; wallet: ExecutorWallet; signer: string }
  | { how: "propose"; safe: SafeState }
  | { how: "print"; signers: string[]; adminRole: string };

/**
 * Who may sign `call` (grantRole or revokeRole of `slot`'s role): the admin role is read on
 * chain; its holders are looked for among the keys this process holds, the contract's
 * defaultAdmin(), the slot's hints and the contract's RoleGranted logs, each checked with
 * hasRole. A held key sends; else a Safe holding it gets a proposal; else the transaction is
 * printed with the holders found (possibly none, then the admin role names who must sign).
 */
export async function routeFor(chain: ChainClient, slot: Slot, wallets: ExecutorWallet[]): Promise<Route> {
  const c = new Contract(slot.contract, ACCESS, chain.provider);
  const adminRole = (await c.getFunction("getRoleAdmin")(slot.role)) as string;
  for (const wallet of wallets) {
    const signer = await wallet.getAddress();
    if (await hasRole(chain, slot.contract, adminRole, signer)) return { how: "send", wallet, signer };
  }
  const holders: string[] = [];
  for (const candidate of await candidates(chain, c, slot, adminRole)) {
    if (holders.includes(candidate)) continue;
    if (await hasRole(chain, slot.contract, adminRole, candidate)) holders.push(candidate);
  }
  for (const holder of holders) {
    const safe = await readSafe(chain, holder, await chain.provider.getCode(holder));
    if (safe) return { how: "propose", safe };
  }
  return { how: "print", signers: holders, adminRole };
}

async function candidates(chain: ChainClient, c: Contract, slot: Slot, adminRole: string): Promise<string[]> {
  const found = [...slot.hints];
  const admin = await (c.getFunction("defaultAdmin")() as Promise<string>).catch(() => undefined);
  if (admin) found.push(getAddress(admin));
  // Holders granted later (a Safe made manager after the deploy) are only known from the logs.
  // A node that refuses the range leaves the holders found so far: the plan then prints the call.
  const logs = await chain.provider
    .getLogs({
      address: slot.contract,
      topics: [ACCESS.getEvent("RoleGranted")!.topicHash, adminRole],
      fromBlock: slot.fromBlock,
      toBlock: "latest",
    })
    .catch(() => []);
  for (const log of logs) found.push(getAddress(`0x${log.topics[2]!.slice(26)}`));
  return found;
}
