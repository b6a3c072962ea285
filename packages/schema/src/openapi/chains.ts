import { CONFIGURED_CHAINS } from "../primitives.js";

/** Lists the configured chains wherever a schema is marked as taking only those. */
export function fillConfiguredChains(node: unknown, chainIds: number[]): void {
  if (Array.isArray(node)) return node.forEach((n) => fillConfiguredChains(n, chainIds));
  if (typeof node !== "object" || node === null) return;
  const o = node as Record<string, unknown>;
  if (o[CONFIGURED_CHAINS] === true) {
    const types = ([] as unknown[]).concat(o.type);
    o.enum = [
      ...(types.includes("string") ? chainIds.map(String) : chainIds),
      ...(types.includes("null") ? [null] : []),
    ];
  }
  for (const v of Object.values(o)) fillConfiguredChains(v, chainIds);
}
