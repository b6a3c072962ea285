import { AbiCoder, type Provider } from "ethers";
import { loadArtifact, loadBuildInfo } from "./artifacts.js";
import type { ExplorerClient, SourceResult, SourceSubmission } from "./explorer.js";
import { PROGRAM_CONTRACTS, type ProgramRecord, type Release } from "./types.js";

/**
 * Source verification (docs/deployment.md#source-verification): after a deploy, the
 * release's implementations and ProgramFactory and every proxy of the program are submitted to
 * the chain's explorers with the exact compiler input they were built from. It never blocks the
 * program: an explorer that does not answer is reported `unreachable` and asked again later.
 */

/** One deployed contract to verify. */
export interface SourceTarget {
  /** What it is, for people: "release Factory", "acme points proxy". */
  label: string;
  address: string;
  artifact: string;
  /** ABI-encoded constructor arguments, hex without 0x. */
  constructorArgs: string;
}

export interface SourceOutcome extends SourceResult {
  label: string;
  address: string;
  explorer: string;
}

/** The contracts of a program and of its release, with the constructor arguments they got. */
export async function sourceTargets(
  program: ProgramRecord,
  release: Release,
  provider: Provider,
): Promise<SourceTarget[]> {
  const targets: SourceTarget[] = [];
  for (const d of Object.values(release.contracts)) {
    if (!d) continue;
    targets.push({
      label: `release ${d.artifact}`,
      address: d.address,
      artifact: d.artifact,
      constructorArgs: d.txHash ? await argsOf(d.artifact, d.txHash, provider) : "",
    });
  }
  for (const c of PROGRAM_CONTRACTS) {
    const proxy = program.addresses[c];
    if (!proxy) continue;
    // ProgramFactory creates each proxy over the release's implementation: ProgramProxy(impl).
    targets.push({
      label: `${program.brand} ${c} proxy`,
      address: proxy,
      artifact: "ProgramProxy",
      constructorArgs: AbiCoder.defaultAbiCoder().encode(["address"], [release.implementations[c]]).slice(2),
    });
  }
  return targets;
}

/** A contract created by a plain CREATE: its arguments follow the creation code in the input. */
async function argsOf(artifact: string, txHash: string, provider: Provider): Promise<string> {
  const tx = await provider.getTransaction(txHash);
  const code = loadArtifact(artifact).bytecode.replace(/^0x/, "");
  const data = (tx?.data ?? "0x").replace(/^0x/, "");
  if (tx?.to || !data.startsWith(code.slice(0, 64))) return "";
  return data.slice(code.length);
}

/**
 * The solc input `artifact` was built from, pruned to the sources it imports (explorers compile
 * what they are given; bytecodeHash "none" keeps the code independent of the other sources).
 */
export function submissionOf(target: SourceTarget, chainId: bigint): SourceSubmission {
  const artifact = loadArtifact(target.artifact);
  const info = loadBuildInfo(artifact);
  const input = info.input as { sources: Record<string, unknown>; settings: object; language: string };
  const output = info.output as { sources: Record<string, { ast: AstNode }> };
  const sourceName = artifact.inputSourceName ?? artifact.sourceName;
  const needed = new Set<string>();
  const visit = (name: string) => {
    if (needed.has(name)) return;
    needed.add(name);
    for (const node of output.sources[name]?.ast.nodes ?? []) {
      if (node.nodeType === "ImportDirective" && node.absolutePath) visit(node.absolutePath);
    }
  };
  visit(sourceName);
  const sources = Object.fromEntries([...needed].sort().map((n) => [n, input.sources[n]]));
  return {
    chainId,
    address: target.address,
    contractIdentifier: `${sourceName}:${artifact.contractName}`,
    input: { language: input.language, sources, settings: input.settings },
    compilerVersion: `v${info.solcLongVersion}`,
    constructorArgs: target.constructorArgs,
  };
}

interface AstNode {
  nodeType: string;
  absolutePath?: string;
  nodes?: AstNode[];
}

/** Submits every target to every explorer; one outcome per pair, never throws for an explorer's answer. */
export async function verifySources(
  targets: SourceTarget[],
  chainId: bigint,
  explorers: ExplorerClient[],
): Promise<SourceOutcome[]> {
  const outcomes: SourceOutcome[] = [];
  for (const t of targets) {
    const submission = submissionOf(t, chainId);
    for (const explorer of explorers) {
      const r = await explorer.verify(submission);
      outcomes.push({ label: t.label, address: t.address, explorer: explorer.name, ...r });
    }
  }
  return outcomes;
}
