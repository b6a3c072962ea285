import { keccak256, ZeroAddress, type Provider } from "ethers";
import { readAdmin } from "./adminStatus.js";
import { codeMatches, loadArtifact } from "./artifacts.js";
import { Chain, type ChainOptions } from "./chain.js";
import { assertCrossCallsKept } from "./crossCalls.js";
import { DeployerError, isDeployerError } from "./errors.js";
import { withLayout } from "./layouts.js";
import type { DeploymentStore, ProgramContract, ProgramRecord, RecordedLayout } from "./types.js";
import { assertUpgradeSafe } from "./upgradeSafety.js";
import { presentContracts } from "./verify.js";

export interface SyncOptions extends ChainOptions {
  contractsDir?: string;
  /** The artifact an implementation unknown to the record was built from, by contract. */
  artifacts?: Partial<Record<ProgramContract, string>>;
  /** Saves the updated record here when anything changed. */
  store?: DeploymentStore;
}

export interface SyncResult {
  /** What changed in the record, one line each (empty: the record already followed the chain). */
  changes: string[];
  /**
   * Upgrades executed on chain that the deployer would have refused (a storage layout that does
   * not extend the previous one, a function another program contract calls removed), one line
   * each; also recorded on the upgrade (`unsafe`). The chain already runs them: sync records
   * what is there and warns.
   */
  warnings: string[];
  program: ProgramRecord;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Artifacts to try for an implementation the record has no layout of. */
function candidates(p: ProgramRecord, key: ProgramContract, impl: string, given?: string): string[] {
  if (given) return [given];
  const proposed = p.upgrades
    .filter((u) => u.contract === key && same(u.newImplementation, impl))
    .map((u) => u.toArtifact);
  return [...new Set([...proposed, p.contracts[key]!.artifact])];
}

/** An artifact of the build, or undefined when the build has none of that name. */
function artifactOf(name: string, dir?: string) {
  try {
    return loadArtifact(name, dir);
  } catch (e) {
    if (isDeployerError(e, "ARTIFACTS_MISSING")) return undefined;
    throw e;
  }
}

/** Why the deployer would have refused moving `key` from `previous` to `next`'s build, if it would. */
function unsafeUpgrade(key: ProgramContract, previous: RecordedLayout, next: string, dir?: string): string | undefined {
  const artifact = artifactOf(next, dir);
  if (!artifact) return undefined;
  try {
    assertUpgradeSafe(previous, artifact, { contractsDir: dir, initializerRuns: true });
    assertCrossCallsKept(key, artifact, dir);
    return undefined;
  } catch (e) {
    if (isDeployerError(e, "UNSAFE_UPGRADE")) return e.message;
    throw e;
  }
}

/**
 * Brings the record in line with changes made outside the deployer (an upgrade or handover
 * executed by a multisig, a script, a block explorer): reads every proxy's ERC-1967
 * implementation slot and every contract's admin and pending admin transfer. An implementation
 * the record has no layout of is imported only when its code on chain equals a build of the
 * given (or proposed) artifact; otherwise nothing is saved and VERIFY_FAILED names each contract
 * that differs. Sends nothing.
 */
export async function syncProgram(
  program: ProgramRecord,
  provider: Provider,
  opts: SyncOptions = {},
): Promise<SyncResult> {
  const chain = new Chain(provider, opts);
  const dir = opts.contractsDir;
  const updated: ProgramRecord = structuredClone(program);
  const changes: string[] = [];
  const warnings: string[] = [];
  const refused: string[] = [];
  const keys = presentContracts(updated);

  for (const key of keys) {
    const rec = updated.contracts[key]!;
    const impl = await chain.implementationOf(rec.proxy);
    const code = await chain.code(impl);
    const hash = keccak256(code);
    if (!updated.layouts?.[hash]) {
      const names = candidates(updated, key, impl, opts.artifacts?.[key]);
      // A recorded artifact this build no longer has is no match, not a failure of the whole sync.
      const match = names.find((name) => {
        const artifact = artifactOf(name, dir);
        return artifact !== undefined && codeMatches(artifact, code);
      });
      if (!match) {
        const hint = opts.artifacts?.[key]
          ? ""
          : `; name the contract it was built from with --artifact ${key}=<ContractName>`;
        const named = names.map((n) => (artifactOf(n, dir) ? n : `${n} (not in this build)`));
        refused.push(
          `${key}: the chain runs ${impl} (code hash ${hash}), which is not a build of ${named.join(" or ")}${hint}`,
        );
        continue;
      }
      updated.layouts = withLayout(updated.layouts, code, loadArtifact(match, dir), impl, dir);
      changes.push(`${key}: recorded the storage layout of ${match} at ${impl}`);
    }
    const known = updated.layouts![hash];
    if (!same(impl, rec.implementation)) {
      changes.push(
        `${key}: the chain runs ${impl} (${known.artifact}), the record had ${rec.implementation} (${rec.artifact})`,
      );
      const previous = updated.layouts![rec.implementationCodeHash];
      const unsafe = previous ? unsafeUpgrade(key, previous, known.artifact, dir) : undefined;
      if (unsafe) warnings.push(`${key}: the chain runs an upgrade the deployer would have refused: ${unsafe}`);
      const proposal = updated.upgrades.find(
        (u) => u.contract === key && u.status === "proposed" && same(u.newImplementation, impl),
      );
      if (proposal) {
        proposal.status = "executed";
        if (unsafe) proposal.unsafe = unsafe;
      } else {
        updated.upgrades.push({
          contract: key,
          fromArtifact: rec.artifact,
          toArtifact: known.artifact,
          oldImplementation: rec.implementation,
          newImplementation: impl,
          status: "executed",
          ...(unsafe ? { unsafe } : {}),
          at: new Date().toISOString(),
        });
      }
      updated.contracts[key] = { ...rec, implementation: impl, artifact: known.artifact, implementationCodeHash: hash };
    }
  }
  if (refused.length > 0) {
    throw new DeployerError(
      "VERIFY_FAILED",
      `program ${program.brand}: cannot sync the record:\n- ${refused.join("\n- ")}`,
      {
        details: { differences: refused },
      },
    );
  }

  const admins = new Map<ProgramContract, string>();
  const pending = new Map<ProgramContract, { newAdmin: string; schedule: number }>();
  for (const key of keys) {
    const s = await readAdmin(chain, updated, key, dir);
    admins.set(key, s.admin);
    if (s.pendingAdmin !== ZeroAddress) pending.set(key, { newAdmin: s.pendingAdmin, schedule: s.schedule });
  }
  const distinct = [...new Set(admins.values())];
  if (distinct.length > 1) {
    const list = [...admins].map(([k, a]) => `${k} ${a}`).join(", ");
    throw new DeployerError(
      "VERIFY_FAILED",
      `program ${program.brand}: the contracts have different admins (${list}); finish the handover first`,
      {
        details: { differences: [...admins].map(([k, a]) => `${k}: admin ${a}`) },
      },
    );
  }
  if (!same(distinct[0], updated.admin)) {
    changes.push(`admin: the chain has ${distinct[0]}, the record had ${updated.admin}`);
    updated.admin = distinct[0];
  }
  const targets = [...new Set([...pending.values()].map((v) => v.newAdmin))];
  if (targets.length > 1) {
    throw new DeployerError(
      "VERIFY_FAILED",
      `program ${program.brand}: pending admin transfers to different accounts (${targets.join(", ")})`,
    );
  }
  const recorded = updated.pendingAdmin?.newAdmin;
  if (targets.length === 0 && recorded) {
    changes.push(`pendingAdmin: the chain has none, the record had a transfer to ${recorded}`);
    delete updated.pendingAdmin;
  } else if (targets.length === 1) {
    const schedules = Object.fromEntries([...pending].map(([k, v]) => [k, v.schedule]));
    const before = updated.pendingAdmin;
    if (
      !before ||
      !same(before.newAdmin, targets[0]) ||
      JSON.stringify(before.schedules) !== JSON.stringify(schedules)
    ) {
      changes.push(
        `pendingAdmin: the chain has a transfer to ${targets[0]}, the record had ${before ? `one to ${before.newAdmin}` : "none"}`,
      );
      updated.pendingAdmin = {
        newAdmin: targets[0],
        schedules,
        txHashes: before && same(before.newAdmin, targets[0]) ? before.txHashes : [],
        at: new Date().toISOString(),
      };
    }
  }
  if (changes.length > 0) await opts.store?.saveProgram(updated);
  return { changes, warnings, program: changes.length > 0 ? updated : program };
}
