import { createRequire } from "node:module";
import type { ValidationOptions, ValidationRunData } from "@openzeppelin/upgrades-core";
import type { ValidationError } from "@openzeppelin/upgrades-core/dist/validate/run.js";
import { loadArtifact, loadBuildInfo, type Artifact } from "./artifacts.js";
import { DeployerError } from "./errors.js";

// upgrades-core is CommonJS; require it so every loader (Node, tsx) sees the same module object.
const core = createRequire(import.meta.url)(
  "@openzeppelin/upgrades-core",
) as typeof import("@openzeppelin/upgrades-core");

/**
 * Upgrade safety through OpenZeppelin's upgrades-core, run on the solc input/output of the
 * contracts package's build-info (the same data the Hardhat plugin validates at compile time).
 * Namespaced (ERC-7201) structs are compared member by member from the AST.
 */

const runs = new Map<string, ValidationRunData>();

function runData(artifact: Artifact, dir?: string): ValidationRunData {
  if (!artifact.buildInfoId) {
    throw new DeployerError(
      "ARTIFACTS_MISSING",
      `artifact: ${artifact.contractName} has no buildInfoId; upgrade safety cannot be checked`,
    );
  }
  const key = `${dir ?? ""}:${artifact.buildInfoId}`;
  let data = runs.get(key);
  if (!data) {
    const info = loadBuildInfo(artifact.buildInfoId, dir);
    const input = info.input as Parameters<typeof core.solcInputOutputDecoder>[0];
    const output = info.output as Parameters<typeof core.solcInputOutputDecoder>[1];
    data = core.validate(output, core.solcInputOutputDecoder(input, output), info.solcVersion, input);
    runs.set(key, data);
  }
  return data;
}

function version(artifact: Artifact, data: ValidationRunData) {
  const name = artifact.inputSourceName
    ? `${artifact.inputSourceName}:${artifact.contractName}`
    : artifact.contractName;
  return core.getContractVersion(data, name);
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
  const errors = core.getErrors([data], version(artifact, data), core.withValidationDefaults(options));
  // Filtered here rather than passed as unsafeAllow, which would print a warning for every upgrade.
  return opts.initializerRuns ? errors : errors.filter((e) => !INITIALIZER_KINDS.includes(e.kind));
}

/** Throws UNSAFE_UPGRADE unless `name` is a safe UUPS implementation. */
export function assertImplementationSafe(name: string | Artifact, opts: SafetyOptions = {}): void {
  const artifact = typeof name === "string" ? loadArtifact(name, opts.contractsDir) : name;
  const errors = errorsOf(artifact, { ...opts, initializerRuns: true });
  if (errors.length > 0) {
    const report = new core.UpgradeableContractErrorReport(errors).explain(false);
    throw new DeployerError("UNSAFE_UPGRADE", `${artifact.contractName}: not upgrade safe:\n${report}`, {
      details: { contract: artifact.contractName, errors: errors.map((e) => e.kind) },
    });
  }
}

/**
 * Throws UNSAFE_UPGRADE unless `next` may replace `current` behind a live proxy: `next` is a
 * safe implementation and its storage layout (namespaces included) extends `current`'s.
 * `initializerRuns` is true when the upgrade calls an initializer on the proxy.
 */
export function assertUpgradeSafe(
  current: Artifact,
  next: Artifact,
  opts: SafetyOptions & { initializerRuns?: boolean } = {},
): void {
  const problems: string[] = [];
  const errors = errorsOf(next, { ...opts, initializerRuns: opts.initializerRuns ?? false });
  if (errors.length > 0) problems.push(new core.UpgradeableContractErrorReport(errors).explain(false));
  const currentData = runData(current, opts.contractsDir);
  const nextData = runData(next, opts.contractsDir);
  const report = core.getStorageUpgradeReport(
    core.getStorageLayout([currentData], version(current, currentData)),
    core.getStorageLayout([nextData], version(next, nextData)),
    core.withValidationDefaults({ kind: "uups" }),
  );
  if (!report.ok) problems.push(`storage layout incompatible with ${current.contractName}:\n${report.explain(false)}`);
  if (problems.length > 0) {
    throw new DeployerError(
      "UNSAFE_UPGRADE",
      `${next.contractName}: refused as an upgrade of ${current.contractName}: ${problems.join("\n")}`,
      { details: { from: current.contractName, to: next.contractName, problems } },
    );
  }
}
