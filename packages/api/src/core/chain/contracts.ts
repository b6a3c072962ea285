import { Contract, type ContractRunner } from "ethers";
import { roleNameOf } from "@points/contracts/program";
import { INTERFACES as ABI_INTERFACES } from "@points/contracts/program/abi";
import { CONTRACT_ROLES, type ContractName, type RoleName } from "@points/schema";
import type { Program } from "../registry/programs.js";
import { ApiError } from "../errors.js";
import { stringOutputsAsBytes } from "./text.js";
import type { FastInterface } from "./fastInterface.js";

// String outputs arrive as bytes: chainText() decodes them leniently where a handler reads one.
export const INTERFACES = Object.fromEntries(
  Object.entries(ABI_INTERFACES).map(([k, i]) => [k, stringOutputsAsBytes(i.fragments)]),
) as Record<keyof typeof ABI_INTERFACES, FastInterface>;

export { CONTRACT_ROLES };
export { roleHash } from "@points/contracts/program";

/** The role's name for a hash, or the hash itself when it is not a program role. */
export const roleName = (hash: string): string => roleNameOf(hash) ?? hash;

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

/** Granting a role the contract does not define is refused before touching the chain. */
export function requireRoleOn(contract: ContractName, role: RoleName) {
  if (!(CONTRACT_ROLES[contract] as readonly string[]).includes(role)) {
    throw new ApiError(
      "INVALID_INPUT",
      `${contract} has no ${role}; it defines ${CONTRACT_ROLES[contract].join(", ")}`,
    );
  }
}
