import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { Interface, InterfaceAbi } from "ethers";
import { COMPILED } from "@points/contracts/program/code";
import { DeployerError } from "./errors.js";
import { FastInterface } from "./fastInterface.js";

/**
 * Compiled contracts come from the @points/contracts package; the deployer never compiles
 * anything. The release's contracts (ABI, creation and runtime code) come from its program
 * module, the one ABI source the API shares. Hardhat's files on disk are read for what that
 * module does not carry: the compiler's output (storage layouts and ASTs for the upgrade-safety
 * checks), contracts outside the release (mocks, upgrade candidates) and another build's
 * contracts directory (`dir`, to upgrade to a newer build). docs/deployment.md#upgrades
 */
export interface Artifact {
  contractName: string;
  sourceName: string;
  abi: InterfaceAbi;
  bytecode: string;
  deployedBytecode: string;
  immutableReferences?: Record<string, { start: number; length: number }[]>;
  linkReferences?: Record<string, unknown>;
  buildInfoId?: string;
  inputSourceName?: string;
}

export interface BuildInfo {
  /** Where it was read: the build-info directory and id. */
  id: string;
  solcVersion: string;
  /** With the commit, as explorers name compilers (0.8.28+commit.7893614a). */
  solcLongVersion: string;
  input: unknown;
  output: unknown;
}

let defaultDir: string | undefined;

/** The root of the @points/contracts package (or `dir` when given). */
export function contractsDir(dir?: string): string {
  if (dir) return dir;
  if (!defaultDir) {
    const require = createRequire(import.meta.url);
    defaultDir = path.dirname(require.resolve("@points/contracts/package.json"));
  }
  return defaultDir;
}

/** The release version: the contracts package's version. */
export function contractsVersion(dir?: string): string {
  return JSON.parse(readFileSync(path.join(contractsDir(dir), "package.json"), "utf8")).version as string;
}

const indexes = new Map<string, Map<string, string[]>>();

function artifactIndex(dir: string): Map<string, string[]> {
  let index = indexes.get(dir);
  if (index) return index;
  const root = path.join(dir, "artifacts", "contracts");
  if (!existsSync(root)) {
    throw new DeployerError(
      "ARTIFACTS_MISSING",
      `artifacts: ${root} does not exist; build the contracts first (pnpm --filter @points/contracts build)`,
    );
  }
  index = new Map();
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith(".json") && !entry.name.endsWith(".dbg.json")) {
        const name = entry.name.slice(0, -".json".length);
        index!.set(name, [...(index!.get(name) ?? []), p]);
      }
    }
  };
  walk(root);
  indexes.set(dir, index);
  return index;
}

const artifactCache = new Map<string, Artifact>();

/**
 * Loads the compiled contract `name` (such as "Points"): a release contract from the program
 * module, anything else, or anything from another contracts directory `dir`, from disk.
 */
export function loadArtifact(name: string, dir?: string): Artifact {
  const released = dir === undefined ? COMPILED[name] : undefined;
  return released ? (released as Artifact) : readArtifact(name, dir);
}

const interfaces = new WeakMap<object, Interface>();

/**
 * The ethers Interface of an artifact's ABI, parsed once per ABI: parsing builds every fragment
 * and hashes every selector, and an onboarding task binds the same few ABIs dozens of times.
 * A FastInterface, since each contract read looks its function up by bare name.
 */
export function artifactInterface(artifact: Pick<Artifact, "abi">): Interface {
  const abi = artifact.abi as object;
  let iface = interfaces.get(abi);
  if (!iface) interfaces.set(abi, (iface = new FastInterface(artifact.abi)));
  return iface;
}

/**
 * The artifact of `name` as Hardhat wrote it on disk: the build whose build-info holds the
 * storage layout and AST the upgrade checks read (the program module may be older).
 */
export function diskArtifact(name: string, dir?: string): Artifact {
  return readArtifact(name, dir);
}

/** The one reader of Hardhat artifact files (see the note at the top of this file). */
function readArtifact(name: string, dir?: string): Artifact {
  const root = contractsDir(dir);
  const key = `${root}:${name}`;
  const cached = artifactCache.get(key);
  if (cached) return cached;
  const files = artifactIndex(root).get(name) ?? [];
  if (files.length !== 1) {
    throw new DeployerError(
      "ARTIFACTS_MISSING",
      files.length === 0
        ? `artifact: no compiled contract named ${name} in ${root}`
        : `artifact: ${name} is ambiguous (${files.join(", ")})`,
    );
  }
  const artifact = JSON.parse(readFileSync(files[0], "utf8")) as Artifact;
  artifactCache.set(key, artifact);
  return artifact;
}

/** Every artifact name the contracts package holds. */
export function artifactNames(dir?: string): string[] {
  return [...artifactIndex(contractsDir(dir)).keys()];
}

const buildInfoCache = new Map<string, BuildInfo>();

/**
 * The solc input and output `artifact` was compiled from (Hardhat 3 split files). The build-info
 * id is the one on disk: a rebuild with other settings (`hardhat test` compiles the test sources
 * too) renames it without changing the code.
 */
export function loadBuildInfo(artifact: Artifact, dir?: string): BuildInfo {
  const id = readArtifact(artifact.contractName, dir).buildInfoId;
  if (!id) {
    throw new DeployerError(
      "ARTIFACTS_MISSING",
      `artifact: ${artifact.contractName} has no buildInfoId; upgrade safety cannot be checked`,
    );
  }
  const base = path.join(contractsDir(dir), "artifacts", "build-info");
  const key = `${base}:${id}`;
  const cached = buildInfoCache.get(key);
  if (cached) return cached;
  const inputFile = path.join(base, `${id}.json`);
  const outputFile = path.join(base, `${id}.output.json`);
  if (!existsSync(inputFile) || !existsSync(outputFile)) {
    throw new DeployerError("ARTIFACTS_MISSING", `build-info: ${id} not found in ${base}; rebuild the contracts`);
  }
  const input = JSON.parse(readFileSync(inputFile, "utf8"));
  const output = JSON.parse(readFileSync(outputFile, "utf8"));
  const info: BuildInfo = {
    id: key,
    solcVersion: input.solcVersion,
    solcLongVersion: input.solcLongVersion ?? input.solcVersion,
    input: input.input,
    output: output.output ?? output,
  };
  buildInfoCache.set(key, info);
  return info;
}

/**
 * Whether `onchainCode` is the runtime code of `artifact`. Immutable values (such as UUPS's
 * own address or ProgramFactory's implementations) differ per deployment and are skipped.
 */
export function codeMatches(artifact: Artifact, onchainCode: string): boolean {
  const expected = artifact.deployedBytecode.replace(/^0x/, "").toLowerCase();
  const actual = onchainCode.replace(/^0x/, "").toLowerCase();
  if (expected.length === 0 || expected.length !== actual.length) return false;
  const skip: [number, number][] = [];
  for (const refs of Object.values(artifact.immutableReferences ?? {})) {
    for (const r of refs) skip.push([r.start * 2, (r.start + r.length) * 2]);
  }
  skip.sort((a, b) => a[0] - b[0]);
  let pos = 0;
  for (const [start, end] of skip) {
    if (expected.slice(pos, start) !== actual.slice(pos, start)) return false;
    pos = Math.max(pos, end);
  }
  return expected.slice(pos) === actual.slice(pos);
}
