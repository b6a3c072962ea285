import { getAddress, isAddress, ZeroAddress, type Provider } from "ethers";
import { Chain, type ChainOptions } from "./chain.js";
import { DeployerError } from "./errors.js";
import { PROGRAM_CONTRACTS, type ProgramContract, type ProgramRecord } from "./types.js";
import { programContract } from "./verify.js";

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

const keysOf = (p: ProgramRecord) => PROGRAM_CONTRACTS.filter((k) => p.contracts[k]);

/** Each contract's admin and pending transfer, read from the chain. */
export async function adminStatus(
  program: ProgramRecord,
  provider: Provider,
  opts: AdminStatusOptions = {},
): Promise<AdminStatus> {
  const chain = new Chain(provider, opts);
  const contracts = await Promise.all(
    keysOf(program).map(async (key): Promise<ContractAdminState> => {
      const c = programContract(program, key, provider, opts.contractsDir);
      const admin = getAddress(await chain.call(`${key}.defaultAdmin`, () => c.defaultAdmin()));
      const [pending, schedule] = await chain.call(`${key}.pendingDefaultAdmin`, () => c.pendingDefaultAdmin());
      return {
        contract: key,
        proxy: program.contracts[key]!.proxy,
        admin,
        pendingAdmin: getAddress(pending),
        schedule: Number(schedule),
      };
    }),
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
  let target: string | undefined;
  if (action === "begin") {
    if (!opts.newAdmin || !isAddress(opts.newAdmin) || opts.newAdmin.toLowerCase() === ZeroAddress) {
      throw new DeployerError("INVALID_CONFIG", `newAdmin: ${opts.newAdmin} is not a non-zero address`);
    }
    target = getAddress(opts.newAdmin);
  }
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
