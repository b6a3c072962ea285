import { rolesOf } from "@points/contracts/program";
import type { ContractName, RoleName } from "@points/schema";

/**
 * The roles a program contract actually has: its ABI's `*_ROLE()` constants (read at the
 * contracts' build by `rolesInAbi`), DEFAULT_ADMIN_ROLE first. A grant form offers only these,
 * so the operator cannot pick a role the chosen contract would never check.
 */
export const contractRoles = (contract: ContractName): RoleName[] => [...rolesOf(contract)] as RoleName[];

/**
 * The role to keep selected when the contract changes: the same one if the new contract has it,
 * else its first role other than the admin's (granting the admin role is never a default).
 */
export function roleAfterContractChange(contract: ContractName, role: RoleName): RoleName {
  const roles = contractRoles(contract);
  if (roles.includes(role)) return role;
  return roles.find((r) => r !== "DEFAULT_ADMIN_ROLE") ?? roles[0]!;
}
