import { getAddress, isAddress, ZeroAddress, type Provider } from "ethers";
import { Chain, type ChainOptions } from "./chain.js";
import { DeployerError } from "./errors.js";
import type { ProgramContract, ProgramRecord } from "./types.js";
import { presentContracts, programContract } from "./verify.js";

export interface AdminStatusOptions extends ChainOptions {
  contractsDir?: string;
}

export interface ContractAdminState {
  contract: ProgramContract;
  proxy: string;
  admin: string;
  /** Zero address when no transfer is pending. */
  pendingAdmin: string;
  /** Unix time after which the pending admin may accept (0 when none). */
  schedule: number;
}

export interface AdminStatus {
  contracts: ContractAdminState[];
  /** The latest block's timestamp: the time the contracts see. */
  chainTime: number;
  /** The pending admin of every contract that has one (undefined: none pending). */
  pendingAdmin?: string;
  /** Whether an accept sent now would succeed on every contract with a pending transfer. */
  acceptableNow: boolean;
}

/** One contract's admin and pending transfer, read from the chain. */
export async function readAdmin(
  chain: Chain,
  program: ProgramRecord,
  key: ProgramContract,
  dir?: string,
): Promise<ContractAdminState> {
  const c = programContract(program, key, chain.provider, dir);
  const admin = getAddress(await chain.call(`${key}.defaultAdmin`, () => c.defaultAdmin()));
  const [pending, schedule] = await chain.call(`${key}.pendingDefaultAdmin`, () => c.pendingDefaultAdmin());
  return {
    contract: key,
    proxy: program.contracts[key]!.proxy,
    admin,
    pendingAdmin: getAddress(pending),
    schedule: Number(schedule),
  };
}

/** The address a handover may go to: a non-zero address, checksummed; INVALID_CONFIG otherwise. */
export function newAdminAddress(newAdmin: string | undefined): string {
  if (!newAdmin || !isAddress(newAdmin) || newAdmin.toLowerCase() === ZeroAddress) {
    throw new DeployerError("INVALID_CONFIG", `newAdmin: ${newAdmin} is not a non-zero address`);
  }
  return getAddress(newAdmin);
}

/** Each contract's admin and pending transfer, read from the chain. */
export async function adminStatus(
  program: ProgramRecord,
  provider: Provider,
  opts: AdminStatusOptions = {},
): Promise<AdminStatus> {
  const chain = new Chain(provider, opts);
  const contracts = await Promise.all(
    presentContracts(program).map((key) => readAdmin(chain, program, key, opts.contractsDir)),
  );
  const chainTime = await chain.now();
  const pending = contracts.filter((c) => c.pendingAdmin !== ZeroAddress);
  return {
    contracts,
    chainTime,
    ...(pending.length > 0 ? { pendingAdmin: pending[0].pendingAdmin } : {}),
    acceptableNow: pending.length > 0 && pending.every((c) => c.schedule <= chainTime),
  };
}

export type AdminAction = "begin" | "accept" | "cancel";

/** One transaction for a signer the deployer does not hold (a Safe, a hardware wallet). */
export interface UnsignedTransaction {
  contract: ProgramContract;
  to: string;
  data: string;
  from: string;
  chainId: bigint;
  value: bigint;
}

/**
 * The transactions a handover step needs, unsigned, for whoever must sign them: `begin` and
 * `cancel` by the current admin, `accept` by the pending admin. Contracts already in the
 * wanted state are left out. Reads only.
 */
export async function adminTransactions(
  program: ProgramRecord,
  action: AdminAction,
  provider: Provider,
  opts: AdminStatusOptions & { newAdmin?: string } = {},
): Promise<UnsignedTransaction[]> {
  const status = await adminStatus(program, provider, opts);
  const target = action === "begin" ? newAdminAddress(opts.newAdmin) : undefined;
  const out: UnsignedTransaction[] = [];
  for (const s of status.contracts) {
    const c = programContract(program, s.contract, provider, opts.contractsDir);
    const tx = (method: string, args: unknown[], from: string) =>
      out.push({
        contract: s.contract,
        to: s.proxy,
        data: c.interface.encodeFunctionData(method, args),
        from,
        chainId: program.chainId,
        value: 0n,
      });
    if (action === "begin" && s.pendingAdmin !== target) tx("beginDefaultAdminTransfer", [target], s.admin);
    if (action === "cancel" && s.pendingAdmin !== ZeroAddress) tx("cancelDefaultAdminTransfer", [], s.admin);
    if (action === "accept" && s.pendingAdmin !== ZeroAddress && s.admin !== s.pendingAdmin) {
      tx("acceptDefaultAdminTransfer", [], s.pendingAdmin);
    }
  }
  if (action === "accept" && out.length === 0) {
    throw new DeployerError("INVALID_CONFIG", `program ${program.brand}: no admin transfer is pending`);
  }
  return out;
}
