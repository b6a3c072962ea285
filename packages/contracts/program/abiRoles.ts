/** An ABI entry, as far as roles are concerned. */
export type AbiItem = { type: string; name?: string; inputs?: readonly unknown[] };

/**
 * The roles an ABI defines: its `*_ROLE()` constants, DEFAULT_ADMIN_ROLE first (every
 * contract's admin), then the ABI's own order. No imports: the build script reads the
 * generated roles through it before the rest of the module exists.
 */
export function rolesInAbi(abi: readonly AbiItem[]): string[] {
  const names = abi
    .filter((f) => f.type === "function" && f.name?.endsWith("_ROLE") && f.inputs?.length === 0)
    .map((f) => f.name!);
  return [...new Set(["DEFAULT_ADMIN_ROLE", ...names])];
}
