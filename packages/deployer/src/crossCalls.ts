import { Interface } from "ethers";
import { loadArtifact, loadBuildInfo, type Artifact } from "./artifacts.js";
import { DeployerError } from "./errors.js";
import type { ProgramContract } from "./types.js";

/** The interface through which the other program contracts hold each contract. */
const INTERFACE_OF: Record<string, ProgramContract> = {
  IPoints: "points",
  IFactory: "factory",
  ICollateralVault: "collateralVault",
  IPSPVault: "pspVault",
  IOracle: "oracle",
};

type Node = { nodeType?: string; id?: number; name?: string; contractKind?: string; [k: string]: unknown };

/** Every AST node under `node`, with the contract it sits in. */
function walk(node: unknown, contract: string | undefined, visit: (n: Node, contract?: string) => void) {
  if (!node || typeof node !== "object") return;
  if (Array.isArray(node)) return node.forEach((n) => walk(n, contract, visit));
  const n = node as Node;
  const inside = n.nodeType === "ContractDefinition" ? n.name : contract;
  visit(n, inside);
  for (const v of Object.values(n)) if (v && typeof v === "object") walk(v, inside, visit);
}

const cache = new Map<string, Map<ProgramContract, Map<string, Set<string>>>>();

/**
 * For each program contract, the selectors the other program contracts call on it (Factory ->
 * Points.mint/burn, PSPVault -> Points, Factory -> CollateralVault, ...), read from the ASTs of
 * the build: every member access that resolves to a function of the contract's interface.
 * Mocks and the interfaces themselves are not callers.
 */
export function crossContractCalls(dir?: string): Map<ProgramContract, Map<string, Set<string>>> {
  const key = dir ?? "";
  const hit = cache.get(key);
  if (hit) return hit;
  const output = loadBuildInfo(loadArtifact("Factory", dir), dir).output as {
    sources: Record<string, { ast: unknown }>;
  };
  const fns = new Map<number, { key: ProgramContract; selector: string }>();
  for (const src of Object.values(output.sources)) {
    walk(src.ast, undefined, (n, c) => {
      const k = c ? INTERFACE_OF[c] : undefined;
      if (k && n.nodeType === "FunctionDefinition" && typeof n.functionSelector === "string") {
        fns.set(n.id!, { key: k, selector: `0x${n.functionSelector}` });
      }
    });
  }
  const calls = new Map<ProgramContract, Map<string, Set<string>>>();
  for (const [file, src] of Object.entries(output.sources)) {
    if (!file.startsWith("project/contracts/") || file.includes("/mocks/") || file.includes("/interfaces/")) continue;
    walk(src.ast, undefined, (n, c) => {
      if (n.nodeType !== "MemberAccess" || !c) return;
      const f = fns.get(n.referencedDeclaration as number);
      if (!f) return;
      const byKey = calls.get(f.key) ?? new Map<string, Set<string>>();
      calls.set(f.key, byKey.set(f.selector, (byKey.get(f.selector) ?? new Set()).add(c)));
    });
  }
  cache.set(key, calls);
  return calls;
}

/**
 * Throws UNSAFE_UPGRADE when `next`, the new implementation of `key`, lacks a function another
 * program contract calls on it: the upgrade would pass every layout check and then break that
 * caller (an upgrade removing Points.burn() makes the Factory's redemptions revert).
 */
export function assertCrossCallsKept(key: ProgramContract, next: Artifact, dir?: string): void {
  const required = crossContractCalls(dir).get(key);
  if (!required) return;
  const have = new Set<string>();
  new Interface(next.abi).forEachFunction((f) => have.add(f.selector));
  const iface = new Interface(
    loadArtifact(
      Object.keys(INTERFACE_OF).find((i) => INTERFACE_OF[i] === key)!,
      dir,
    ).abi,
  );
  const missing = [...required]
    .filter(([selector]) => !have.has(selector))
    .map(
      ([selector, callers]) =>
        `${iface.getFunction(selector)?.format() ?? selector} (called by ${[...callers].sort().join(", ")})`,
    );
  if (missing.length === 0) return;
  throw new DeployerError(
    "UNSAFE_UPGRADE",
    `${key}: ${next.contractName} lacks functions other program contracts call on it: ${missing.join("; ")}`,
    { details: { contract: key, missing } },
  );
}
