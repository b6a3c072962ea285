import { Contract, Interface, id, type ContractRunner, type InterfaceAbi } from "ethers";
import {
  CollateralVault__factory,
  Factory__factory,
  MockStablecoin__factory,
  Oracle__factory,
  PSPVault__factory,
  Points__factory,
} from "@points/contracts";
import { CONTRACT_ROLES, type ContractName, type RoleName } from "@points/schema";
import type { Program } from "../registry/programs.js";
import { ApiError } from "../errors.js";
import { stringOutputsAsBytes } from "./text.js";

export const ABIS: Record<ContractName | "asset", InterfaceAbi> = {
  points: Points__factory.abi,
  factory: Factory__factory.abi,
  collateralVault: CollateralVault__factory.abi,
  pspVault: PSPVault__factory.abi,
  oracle: Oracle__factory.abi,
  // Any ERC-20: the standard functions and OpenZeppelin's ERC-20 errors.
  asset: MockStablecoin__factory.abi,
};

// String outputs arrive as bytes: chainText() decodes them leniently where a handler reads one.
export const INTERFACES = Object.fromEntries(
  Object.entries(ABIS).map(([k, abi]) => [k, stringOutputsAsBytes(abi)]),
) as Record<ContractName | "asset", Interface>;

export { CONTRACT_ROLES };

export const roleHash = (role: RoleName): string => (role === "DEFAULT_ADMIN_ROLE" ? `0x${"0".repeat(64)}` : id(role));

const ROLE_BY_HASH = new Map<string, RoleName>(
  [...new Set(Object.values(CONTRACT_ROLES).flat())].map((r) => [roleHash(r), r]),
);
/** The role's name for a hash, or the hash itself when it is not a program role. */
export const roleName = (hash: string): string => ROLE_BY_HASH.get(hash.toLowerCase()) ?? hash;

/** Address of a named contract of the program; oracle-less programs answer 404 for "oracle". */
export function contractAddress(program: Program, name: ContractName): string {
  const address = program[name];
  if (!address) throw new ApiError("NOT_FOUND", `program ${program.id} has no ${name}`);
  return address;
}

/** A new Contract over the already parsed Interface (never re-parses the ABI). */
export function connect(program: Program, name: ContractName, runner: ContractRunner): Contract {
  return new Contract(contractAddress(program, name), INTERFACES[name], runner);
}

export function requireRoleOn(contract: ContractName, role: RoleName) {
  if (!CONTRACT_ROLES[contract].includes(role)) {
    throw new ApiError(
      "INVALID_INPUT",
      `${contract} has no ${role}; it defines ${CONTRACT_ROLES[contract].join(", ")}`,
    );
  }
}
