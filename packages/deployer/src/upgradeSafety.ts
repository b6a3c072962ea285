import { createRequire } from "node:module";
import type { StorageLayout, ValidationOptions, ValidationRunData } from "@openzeppelin/upgrades-core";
import type { ValidationError } from "@openzeppelin/upgrades-core/dist/validate/run.js";
import { loadArtifact, loadBuildInfo, type Artifact } from "./artifacts.js";
import { DeployerError } from "./errors.js";
import type { RecordedLayout } from "./types.js";

type UpgradesCore = typeof import("@openzeppelin/upgrades-core");
let loaded: UpgradesCore | undefined;
/**
 * upgrades-core, required on first use: it is CommonJS (required so every loader, Node and tsx, sees the same
 * module object) and loading it is a large share of a process's start-up that never checks an upgrade.
 */
const core = (): UpgradesCore =>
  (loaded ??= createRequire(import.meta.url)("@openzeppelin/upgrades-core") as UpgradesCore);

/**
 * Upgrade safety through OpenZeppelin's upgrades-core, run on the solc input/output of the
 * contracts package's build-info (the same data the Hardhat plugin validates at compile time).
 * Namespaced (ERC-7201) structs are compared member by member from the AST.
 */

const runs = new Map<string, ValidationRunData>();

function runData(artifact: Artifact, dir?: string): ValidationRunData {
  const info = loadBuildInfo(artifact, dir);
  let data = runs.get(info.id);
  if (!data) {
    const input = info.input as Parameters<UpgradesCore["solcInputOutputDecoder"]>[0];
    const output = info.output as Parameters<UpgradesCore["solcInputOutputDecoder"]>[1];
    data = core().validate(output, core().solcInputOutputDecoder(input, output), info.solcVersion, input);
    runs.set(info.id, data);
  }
  return data;
}

function version(artifact: Artifact, data: ValidationRunData) {
  const name = artifact.inputSourceName
    ? `${artifact.inputSourceName}:${artifact.contractName}`
    : artifact.contractName;
  return core().getContractVersion(data, name);
}

/** Initializer-shape checks only matter when the initializer runs, i.e. at a proxy's birth. */
const INITIALIZER_KINDS: ValidationError["kind"][] = [
  "missing-initializer",
  "missing-initializer-call",
  "duplicate-initializer-call",
  "incorrect-initializer-order",
];

export interface SafetyOptions {
  contractsDir?: string;
  /** Kinds of OpenZeppelin validation errors to accept (never storage layout errors). */
  unsafeAllow?: ValidationError["kind"][];
}

function errorsOf(artifact: Artifact, opts: SafetyOptions & { initializerRuns: boolean }): ValidationError[] {
  const data = runData(artifact, opts.contractsDir);
  const options: ValidationOptions = { kind: "uups", unsafeAllow: opts.unsafeAllow ?? [] };
  const errors = core().getErrors([data], version(artifact, data), core().withValidationDefaults(options));
  // Filtered here rather than passed as unsafeAllow, which would print a warning for every upgrade.
  return opts.initializerRuns ? errors : errors.filter((e) => !INITIALIZER_KINDS.includes(e.kind));
}

/** The storage layout of `artifact` from its build-info (ERC-7201 namespaces included). */
export function storageLayoutOf(artifact: Artifact, dir?: string): StorageLayout {
  const data = runData(artifact, dir);
  return core().getStorageLayout([data], version(artifact, data));
}

type AstNode = { nodeType?: string; id?: number; name?: string; kind?: string; [k: string]: unknown };
type Sources = Record<string, { ast: AstNode }>;

function contractDefinitions(source: { ast: AstNode } | undefined): AstNode[] {
  return ((source?.ast.nodes ?? []) as AstNode[]).filter((n) => n.nodeType === "ContractDefinition");
}

function calls(node: unknown, name: string): boolean {
  if (!node || typeof node !== "object") return false;
  if ((node as AstNode).nodeType === "Identifier" && (node as AstNode).name === name) return true;
  return Object.values(node).some((child) => calls(child, name));
}

/**
 * Whether a constructor of the contract or of one of its bases calls `_disableInitializers()`:
 * otherwise anyone could initialize the implementation itself and act as its admin.
 */
export function disablesInitializers(artifact: Artifact, dir?: string): boolean {
  runData(artifact, dir); // ARTIFACTS_MISSING when the build-info is absent
  const sources = (loadBuildInfo(artifact, dir).output as { sources: Sources }).sources;
  const byId = new Map<number, AstNode>();
  for (const source of Object.values(sources)) for (const n of contractDefinitions(source)) byId.set(n.id!, n);
  const self = contractDefinitions(sources[artifact.inputSourceName ?? artifact.sourceName]).find(
    (n) => n.name === artifact.contractName,
  );
  return ((self?.linearizedBaseContracts as number[] | undefined) ?? []).some((id) =>
    ((byId.get(id)?.nodes ?? []) as AstNode[]).some(
      (f) => f.nodeType === "FunctionDefinition" && f.kind === "constructor" && calls(f.body, "_disableInitializers"),
    ),
  );
}

/** The checks of a UUPS implementation beyond OpenZeppelin's: `proxiableUUID` kept, initializers disabled. */
function uupsProblems(artifact: Artifact, dir?: string): string[] {
  const problems: string[] = [];
  const abi = artifact.abi as { type: string; name?: string }[];
  if (!abi.some((f) => f.type === "function" && f.name === "proxiableUUID")) {
    problems.push("it has no proxiableUUID(): a proxy upgraded to it could never be upgraded again");
  }
  if (!abi.some((f) => f.type === "function" && f.name === "upgradeToAndCall")) {
    problems.push("it has no upgradeToAndCall(): a proxy upgraded to it could never be upgraded again");
  }
  if (!disablesInitializers(artifact, dir)) {
    problems.push("its constructor does not call _disableInitializers(): the implementation could be initialized");
  }
  return problems;
}

/** Throws UNSAFE_UPGRADE unless `name` is a safe UUPS implementation. */
export function assertImplementationSafe(name: string | Artifact, opts: SafetyOptions = {}): void {
  const artifact = typeof name === "string" ? loadArtifact(name, opts.contractsDir) : name;
  const errors = errorsOf(artifact, { ...opts, initializerRuns: true });
  const uups = uupsProblems(artifact, opts.contractsDir);
  if (errors.length > 0 || uups.length > 0) {
    const report = [
      ...(errors.length > 0 ? [new (core().UpgradeableContractErrorReport)(errors).explain(false)] : []),
      ...uups,
    ].join("\n");
    throw new DeployerError("UNSAFE_UPGRADE", `${artifact.contractName}: not upgrade safe:\n${report}`, {
      details: { contract: artifact.contractName, errors: [...errors.map((e) => e.kind), ...uups] },
    });
  }
}

/**
 * Throws UNSAFE_UPGRADE unless `next` may replace `current` behind a live proxy: `next` is a
 * safe UUPS implementation (OpenZeppelin's checks, `proxiableUUID` kept, initializers disabled)
 * and its storage layout (namespaces included) extends `current`'s. `current` is the layout
 * recorded for the implementation the proxy runs, or an artifact. `initializerRuns` is true
 * when the upgrade calls an initializer on the proxy.
 */
export function assertUpgradeSafe(
  current: RecordedLayout | Artifact,
  next: Artifact,
  opts: SafetyOptions & { initializerRuns?: boolean } = {},
): void {
  const problems: string[] = [];
  const errors = errorsOf(next, { ...opts, initializerRuns: opts.initializerRuns ?? false });
  if (errors.length > 0) problems.push(new (core().UpgradeableContractErrorReport)(errors).explain(false));
  problems.push(...uupsProblems(next, opts.contractsDir));
  const [from, layout] =
    "layout" in current
      ? [`${current.artifact} at ${current.address}`, current.layout]
      : [current.contractName, storageLayoutOf(current, opts.contractsDir)];
  const report = core().getStorageUpgradeReport(
    layout,
    storageLayoutOf(next, opts.contractsDir),
    core().withValidationDefaults({ kind: "uups" }),
  );
  if (!report.ok) problems.push(`storage layout incompatible with ${from}:\n${report.explain(false)}`);
  if (problems.length > 0) {
    throw new DeployerError(
      "UNSAFE_UPGRADE",
      `${next.contractName}: refused as an upgrade of ${from}: ${problems.join("\n")}`,
      {
        details: { from, to: next.contractName, problems },
      },
    );
  }
}
