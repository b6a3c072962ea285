import { ZeroAddress } from "ethers";
import { decodeLog, type LedgerContract } from "../../core/ledger/decode.js";
import type { RpcLog } from "../../core/ledger/rpc.js";
import type { FollowedProgram } from "../../core/ledger/store.js";

/** The addresses a range is read for (lower case), each with its program and contract. */
export type Watch = Map<string, { programId: string | null; contract: LedgerContract }>;

/** The contracts of `programs`; with `withFactories`, the ProgramFactories that announced them too. */
export function watchOf(programs: FollowedProgram[], withFactories: boolean): Watch {
  const w: Watch = new Map();
  for (const p of programs) {
    w.set(p.points, { programId: p.programId, contract: "points" });
    w.set(p.factory, { programId: p.programId, contract: "factory" });
    w.set(p.collateralVault, { programId: p.programId, contract: "collateralVault" });
    w.set(p.pspVault, { programId: p.programId, contract: "pspVault" });
    if (p.oracle) w.set(p.oracle, { programId: p.programId, contract: "oracle" });
    if (withFactories && p.programFactory) w.set(p.programFactory, { programId: null, contract: "programFactory" });
  }
  return w;
}

/**
 * The programs a watched ProgramFactory announced (`ProgramDeployed`) in `logs` that the ledger
 * does not follow yet (`followed`: by brand or by Factory), each from its announcing block and
 * synced to `to`, the end of the range that found it.
 */
export function announcedPrograms(
  logs: RpcLog[],
  watch: Watch,
  followed: FollowedProgram[],
  to: number,
): FollowedProgram[] {
  const known = new Set(followed.flatMap((p) => [p.programId, p.factory]));
  const announced: FollowedProgram[] = [];
  for (const log of logs) {
    const w = watch.get(log.address.toLowerCase());
    if (w?.contract !== "programFactory") continue;
    const d = decodeLog("programFactory", log);
    if (d.event !== "ProgramDeployed") continue;
    const p = d.args.program as Record<string, string>;
    const brand = d.args.brand as string;
    if (known.has(brand) || known.has(p.factory!.toLowerCase())) continue;
    known.add(brand);
    announced.push({
      programId: brand,
      source: "factory",
      points: p.points!.toLowerCase(),
      factory: p.factory!.toLowerCase(),
      collateralVault: p.collateralVault!.toLowerCase(),
      pspVault: p.pspVault!.toLowerCase(),
      oracle: p.oracle === ZeroAddress ? null : p.oracle!.toLowerCase(),
      programFactory: log.address.toLowerCase(),
      fromBlock: Number(BigInt(log.blockNumber)),
      syncedTo: to,
    });
  }
  return announced;
}

const addressesOf = new WeakMap<FollowedProgram[], { addresses: string[]; key: string }>();

/** The addresses a bloom is checked for (every contract of `programs` and their ProgramFactories), and a key naming the set. */
export function watchedAddresses(programs: FollowedProgram[]): { addresses: string[]; key: string } {
  let w = addressesOf.get(programs);
  if (!w) {
    const addresses = [...watchOf(programs, true).keys()].sort();
    addressesOf.set(programs, (w = { addresses, key: addresses.join() }));
  }
  return w;
}
