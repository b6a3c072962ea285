import {
  Contract,
  getAddress,
  Interface,
  ZeroAddress,
  ZeroHash,
  type ContractRunner,
  type EventFragment,
  type Provider,
} from "ethers";
import { ROLE_NAMES, rolesInAbi, type AbiItem } from "@points/contracts/program";
import { artifactInterface, loadArtifact } from "./artifacts.js";
import { Chain, type ChainOptions } from "./chain.js";
import { DeployerError } from "./errors.js";
import { safeInfo, type SafeInfo } from "./safeInfo.js";
import { PROGRAM_CONTRACTS, type ProgramContract, type ProgramRecord } from "./types.js";

const EVENTS = new Interface([
  "event RoleGranted(bytes32 indexed role, address indexed account, address indexed sender)",
  "event RoleRevoked(bytes32 indexed role, address indexed account, address indexed sender)",
  "event TransferWhitelistUpdated(address indexed account, bool whitelisted)",
]);
// By topic, hashed once: ethers' parseLog hashes every event's signature again for each log.
const EVENT_BY_TOPIC = new Map<string, EventFragment>();
EVENTS.forEachEvent((e) => EVENT_BY_TOPIC.set(e.topicHash, e));

/** Every program role but the three with their own holders: the brand's wallet holds these. */
const ADMIN_HELD_ROLES = new Set<string>(
  ROLE_NAMES.filter((r) => r !== "DEFAULT_ADMIN_ROLE" && r !== "MINTER_ROLE" && r !== "EXECUTOR_ROLE"),
);

/**
 * Who must hold `role` on `contract` (docs/deployment.md#roles-at-birth): the brand's wallet every admin role,
 * the executor EXECUTOR_ROLE and nothing else, the Factory MINTER_ROLE on Points. `atBirth`
 * uses the birth admin; later the current DEFAULT_ADMIN_ROLE holder. Undefined: a role this
 * deployer does not know, which verification reports instead of guessing.
 */
export function expectedHolders(
  p: ProgramRecord,
  contract: ProgramContract,
  role: string,
  atBirth = false,
): string[] | undefined {
  if (role === "DEFAULT_ADMIN_ROLE") return [atBirth ? p.deployer : p.admin];
  if (ADMIN_HELD_ROLES.has(role)) return [p.deployer];
  if (role === "MINTER_ROLE" && contract === "points") return [p.addresses.factory!];
  if (role === "EXECUTOR_ROLE" && contract === "factory") return p.config.executorRole === false ? [] : [p.executor];
  return undefined;
}

/** The role constants (`*_ROLE()` views) of an artifact's ABI, DEFAULT_ADMIN_ROLE included. */
export function roleNames(artifactName: string, dir?: string): string[] {
  return rolesInAbi(loadArtifact(artifactName, dir).abi as AbiItem[]);
}

export function programContract(p: ProgramRecord, key: ProgramContract, runner: ContractRunner, dir?: string) {
  const c = p.contracts[key]!;
  return new Contract(c.proxy, artifactInterface(loadArtifact(c.artifact, dir)), runner);
}

/** The program's contracts that the record holds (the oracle is optional), in deployment order. */
export function presentContracts(p: ProgramRecord): ProgramContract[] {
  return PROGRAM_CONTRACTS.filter((k) => p.contracts[k]);
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** What the deployment transaction granted: roles (by contract and role hash) and allowlist entries. */
export async function birthFacts(chain: Chain, p: Pick<ProgramRecord, "txHash" | "addresses">) {
  const receipt = await chain.call(`getTransactionReceipt(${p.txHash})`, () =>
    chain.provider.getTransactionReceipt(p.txHash),
  );
  if (!receipt) throw new DeployerError("VERIFY_FAILED", `txHash: deployment transaction ${p.txHash} not found`);
  const byAddress = new Map<string, ProgramContract>();
  for (const [k, a] of Object.entries(p.addresses)) if (a) byAddress.set(a.toLowerCase(), k as ProgramContract);
  const grants = new Set<string>();
  const allowlist = new Set<string>();
  for (const log of receipt.logs) {
    const contract = byAddress.get(log.address.toLowerCase());
    const event = contract && log.topics[0] !== undefined ? EVENT_BY_TOPIC.get(log.topics[0]) : undefined;
    if (!contract || !event) continue;
    const parsed = { name: event.name, args: EVENTS.decodeEventLog(event, log.data, log.topics) };
    if (parsed.name === "TransferWhitelistUpdated") {
      const account = getAddress(String(parsed.args[0]));
      if (contract !== "points") continue;
      if (parsed.args[1]) allowlist.add(account);
      else allowlist.delete(account);
      continue;
    }
    const key = `${contract}|${parsed.args[0]}|${getAddress(String(parsed.args[1]))}`;
    if (parsed.name === "RoleGranted") grants.add(key);
    if (parsed.name === "RoleRevoked") grants.delete(key);
  }
  return { grants, allowlist: [...allowlist], blockNumber: receipt.blockNumber };
}

export interface VerifyOptions extends ChainOptions {
  contractsDir?: string;
}

/** An admin account: a wallet, or a Safe with its owners and threshold. */
export interface AdminAccount {
  address: string;
  safe?: SafeInfo;
}

export interface VerifyReport {
  ok: true;
  /** Number of facts compared with the chain. */
  checked: number;
  /** The DEFAULT_ADMIN_ROLE holder of every contract, and the pending one if a handover is begun. */
  admin: AdminAccount;
  pendingAdmin?: AdminAccount;
}

/**
 * Reads the program back from the chain and compares it with the record: every role of every
 * contract (each holder present, the executor holding EXECUTOR_ROLE only, the deployment
 * transaction granting nothing else), the admin and its pending transfer, the transfer
 * allowlist, every cross reference and every proxy's ERC-1967 implementation slot. Throws
 * VERIFY_FAILED listing every difference.
 */
export async function verifyProgram(
  p: ProgramRecord,
  signerOrProvider: ContractRunner | Provider,
  opts: VerifyOptions = {},
): Promise<VerifyReport> {
  const runner = signerOrProvider as ContractRunner;
  const provider = (runner.provider ?? runner) as Provider;
  const chain = new Chain(provider, opts);
  const dir = opts.contractsDir;
  const diffs: string[] = [];
  let checked = 0;
  const expect = (ok: boolean, message: string) => {
    checked++;
    if (!ok) diffs.push(message);
  };
  const read = <T>(what: string, fn: () => Promise<T>) => chain.call(what, fn);
  // What the chain has first, then what the record (or the program's birth) has.
  const flag = async <T>(what: string, fn: () => Promise<T>, recorded: T) => {
    const onChain = await read(what, fn);
    expect(onChain === recorded, `${what}: the chain has ${String(onChain)}, the record has ${String(recorded)}`);
  };

  const birth = await birthFacts(chain, p);
  const birthExpected = new Set<string>();
  const roleLabels = new Map<string, string>();
  const pfAddress = p.programFactory;

  // Reads run in parallel per contract: a verification is a few hundred calls.
  await Promise.all(
    presentContracts(p).map(async (key) => {
      const rec = p.contracts[key]!;
      const c = programContract(p, key, provider, dir);
      const impl = await chain.implementationOf(rec.proxy);
      const proposed = p.upgrades
        .filter((u) => u.contract === key && u.status === "proposed")
        .map((u) => u.newImplementation);
      expect(
        same(impl, rec.implementation) || proposed.some((a) => same(a, impl)),
        `${key}: the chain runs implementation ${impl}, the record has ${rec.implementation}`,
      );

      await Promise.all(
        roleNames(rec.artifact, dir).map(async (role) => {
          const hash: string = role === "DEFAULT_ADMIN_ROLE" ? ZeroHash : await read(`${key}.${role}`, () => c[role]());
          roleLabels.set(hash, role);
          const holders = expectedHolders(p, key, role);
          const birthHolders = expectedHolders(p, key, role, true);
          if (!holders || !birthHolders) {
            expect(false, `${key}: role ${role} has no expected holder in this deployer version`);
            return;
          }
          for (const h of birthHolders) birthExpected.add(`${key}|${hash}|${getAddress(h)}`);
          const has = (account: string) => read(`${key}.hasRole(${role})`, () => c.hasRole(hash, account));
          // EXECUTOR_ROLE is the Factory's MANAGER_ROLE holders' to grant and revoke after birth (the
          // redemption desk's policy, docs/deployment.md#executor_role-follows-the-desk): only its birth is checked.
          const managed = role === "EXECUTOR_ROLE";
          const checks = managed
            ? []
            : holders.map(async (h) => expect(await has(h), `${key}: ${h} should hold ${role} but does not`));
          if (!managed && !holders.some((h) => same(h, p.executor))) {
            checks.push(
              has(p.executor).then((v) =>
                expect(!v, `${key}: the executor ${p.executor} holds ${role}; it may hold EXECUTOR_ROLE only`),
              ),
            );
          }
          checks.push(has(pfAddress).then((v) => expect(!v, `${key}: the ProgramFactory holds ${role}`)));
          await Promise.all(checks);
        }),
      );

      const admin = await read(`${key}.defaultAdmin`, () => c.defaultAdmin());
      expect(same(admin, p.admin), `${key}: the chain has admin ${admin}, the record has ${p.admin}`);
      const [pendingAdmin] = await read(`${key}.pendingDefaultAdmin`, () => c.pendingDefaultAdmin());
      const expectedPending = p.pendingAdmin?.newAdmin ?? ZeroAddress;
      const transfer = (a: string) =>
        same(a, ZeroAddress) ? "no pending admin transfer" : `a pending admin transfer to ${a}`;
      expect(
        same(pendingAdmin, expectedPending),
        `${key}: the chain has ${transfer(pendingAdmin)}, the record has ${transfer(expectedPending)}`,
      );
      // Flags every contract is born with.
      await flag(`${key}.paused`, () => c.paused(), false);
      await flag(`${key}.defaultAdminDelay`, async () => Number(await c.defaultAdminDelay()), p.config.adminDelay);
    }),
  );

  const describe = (grant: string) => {
    const [contract, role, account] = grant.split("|");
    return `${contract} ${roleLabels.get(role) ?? role} to ${account}`;
  };
  for (const g of birth.grants) expect(birthExpected.has(g), `deployment granted an unexpected role: ${describe(g)}`);
  for (const g of birthExpected) expect(birth.grants.has(g), `deployment did not grant ${describe(g)}`);

  const points = programContract(p, "points", provider, dir);
  const factory = programContract(p, "factory", provider, dir);
  const vault = programContract(p, "collateralVault", provider, dir);
  const psp = programContract(p, "pspVault", provider, dir);
  const allow = expectedAllowlist(p);
  for (const a of allow) {
    expect(
      await read("points.isTransferWhitelisted", () => points.isTransferWhitelisted(a)),
      `points: ${a} is not on the transfer allowlist`,
    );
  }
  for (const a of birth.allowlist)
    expect(
      allow.some((x) => same(x, a)),
      `points: deployment allowlisted unexpected ${a}`,
    );

  const ref = async (what: string, fn: () => Promise<string>, want: string) =>
    flag(what, async () => getAddress(await fn()), getAddress(want));
  await ref("factory.points", () => factory.points(), p.addresses.points!);
  await ref("factory.vaultOf(collateral)", () => factory.vaultOf(p.collateralAsset), p.addresses.collateralVault!);
  await ref("factory.oracle", () => factory.oracle(), p.addresses.oracle ?? ZeroAddress);
  await ref("factory.feeReceiver", () => factory.feeReceiver(), p.config.feeReceiver);
  await ref("collateralVault.factory", () => vault.factory(), p.addresses.factory!);
  await ref("collateralVault.asset", () => vault.asset(), p.collateralAsset);
  await ref("pspVault.points", () => psp.points(), p.addresses.points!);
  await flag("factory.mintFeeBps", async () => Number(await factory.mintFeeBps()), p.config.mintFeeBps);
  await flag("factory.redeemFeeBps", async () => Number(await factory.redeemFeeBps()), p.config.redeemFeeBps);
  await flag("factory.redeemDelay", async () => Number(await factory.redeemDelay()), p.config.redeemDelay);
  await flag("points.transferRestricted", () => points.transferRestricted(), true);
  await flag("factory.basketModeForced", () => factory.basketModeForced(), false);
  if (p.config.oracle && p.addresses.oracle) {
    const o = p.config.oracle;
    const oracle = programContract(p, "oracle", provider, dir);
    const feed = await read("oracle.feedOf(collateral)", () => oracle.feedOf(p.collateralAsset));
    const shown = (f: { feed: string; heartbeat: unknown; lowerPeg: unknown; upperPeg: unknown }) =>
      `feed ${getAddress(f.feed)}, heartbeat ${f.heartbeat}, pegs ${f.lowerPeg}..${f.upperPeg}`;
    const chainFeed = shown(feed);
    const recordFeed = shown(o);
    expect(
      chainFeed === recordFeed,
      `oracle.feedOf(collateral): the chain has ${chainFeed}, the record has ${recordFeed}`,
    );
  }

  if (diffs.length > 0) {
    throw new DeployerError("VERIFY_FAILED", `program ${p.brand} differs from the chain:\n- ${diffs.join("\n- ")}`, {
      details: { differences: diffs },
    });
  }
  // Who signs for the admin: a Safe's owners and threshold, read from the chain.
  const account = async (address: string): Promise<AdminAccount> => {
    const safe = await read(`safe ${address}`, () => safeInfo(provider, address));
    return { address: getAddress(address), ...(safe && { safe }) };
  };
  const pending = p.pendingAdmin?.newAdmin;
  return { ok: true, checked, admin: await account(p.admin), ...(pending && { pendingAdmin: await account(pending) }) };
}

export function expectedAllowlist(p: ProgramRecord): string[] {
  const list = [p.addresses.factory!, p.addresses.pspVault!];
  if (p.config.mintFeeBps !== 0 || p.config.redeemFeeBps !== 0) list.push(p.config.feeReceiver);
  return list.map((a) => getAddress(a));
}
