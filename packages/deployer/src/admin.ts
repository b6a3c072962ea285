import { ZeroAddress, type Signer } from "ethers";
import { newAdminAddress, readAdmin, type ContractAdminState } from "./adminStatus.js";
import { Chain, type ChainOptions } from "./chain.js";
import { DeployerError } from "./errors.js";
import { runStage } from "./stage.js";
import { noStore } from "./store.js";
import type { DeploymentStore, ProgramContract, ProgramRecord, StageName } from "./types.js";
import { presentContracts, programContract } from "./verify.js";

export interface AdminOptions extends ChainOptions {
  contractsDir?: string;
  /** Records the pending transfer / the new admin here. */
  store?: DeploymentStore;
  /**
   * A development node that mines only on transactions keeps an old latest timestamp: when the
   * delay has passed by the wall clock but not by the chain, mine one block (evm_mine) first.
   * Only for development chains over a loopback RPC (the CLI decides).
   */
  mineWhenDue?: boolean;
}

export interface AdminResult {
  /** One transaction per contract that needed it. */
  txHashes: string[];
  /** Unix time after which each contract accepts the new admin (handover only). */
  schedules: Partial<Record<ProgramContract, number>>;
  /** The record with the change applied (saved to `store` when given). */
  program: ProgramRecord;
}

/** What an admin step's body works with: the chain, the signer's address, and `send`. */
interface AdminStep {
  chain: Chain;
  from: string;
  /** Each contract's admin state as the step began. */
  states: ContractAdminState[];
  /**
   * Sends `method(...args)` to every contract that `needs` it, back to back with local nonces
   * (each simulated first), then waits for all receipts.
   */
  send: (method: string, args: unknown[], needs: (s: ContractAdminState) => boolean) => Promise<string[]>;
}

/**
 * Runs `body` as `stage` of the program's flow with `signer`, then saves the record `body`
 * returns (its transaction hashes and schedules go into the result).
 */
async function adminStage(
  program: ProgramRecord,
  signer: Signer,
  opts: AdminOptions,
  stage: StageName,
  body: (step: AdminStep) => Promise<Omit<AdminResult, "program"> & { update: (p: ProgramRecord) => void }>,
): Promise<AdminResult> {
  const store = opts.store ?? noStore;
  const chain = Chain.of(signer, opts);
  const ctx = { chainId: program.chainId, brand: program.brand };
  const work = async () => {
    const from = await chain.addressOf(signer);
    const states = await Promise.all(
      presentContracts(program).map((key) => readAdmin(chain, program, key, opts.contractsDir)),
    );
    const send: AdminStep["send"] = async (method, args, needs) => {
      const todo = states.filter(needs).map((s) => s.contract);
      const fns = todo.map((key) => programContract(program, key, signer, opts.contractsDir).getFunction(method));
      const gas: bigint[] = [];
      for (const [i, key] of todo.entries()) {
        gas.push(await chain.call(`simulate ${key}.${method}`, () => fns[i].estimateGas(...args)));
      }
      for (const [i, key] of todo.entries()) chain.assertGasCap((gas[i] * 12n) / 10n, `${key}.${method}`);
      let nonce = await chain.settle(from);
      const hashes: string[] = [];
      for (const [i, key] of todo.entries()) {
        const tx = await chain.call(`send ${key}.${method}`, () =>
          fns[i].send(...args, { nonce: nonce++, gasLimit: (gas[i] * 12n) / 10n }),
        );
        hashes.push(tx.hash);
        await store.stageTransaction(ctx, stage, {
          hash: tx.hash,
          nonce: tx.nonce,
          to: program.contracts[key]!.proxy,
          description: `${key}.${method}`,
        });
      }
      for (const [i, key] of todo.entries()) await chain.receipt(hashes[i], `${key}.${method}`);
      return hashes;
    };
    const { update, ...result } = await body({ chain, from, states, send });
    const updated: ProgramRecord = structuredClone(program);
    update(updated);
    await store.saveProgram(updated);
    return { value: { ...result, program: updated } };
  };
  return runStage(store, ctx, stage, work);
}

/** WRONG_KEY unless `from` is the contract's current admin. */
function requireAdmin(s: ContractAdminState, from: string): void {
  if (s.admin !== from)
    throw new DeployerError("WRONG_KEY", `signer: ${from} is not the admin (${s.admin}) of ${s.contract}`);
}

/**
 * Begins the two-step DEFAULT_ADMIN_ROLE transfer to `newAdmin` (a multisig, typically) on
 * every contract of the program. Contracts already transferring to `newAdmin` are skipped.
 */
export async function handoverAdmin(
  program: ProgramRecord,
  newAdmin: string,
  adminSigner: Signer,
  opts: AdminOptions = {},
): Promise<AdminResult> {
  const target = newAdminAddress(newAdmin);
  return adminStage(program, adminSigner, opts, "handover", async ({ chain, from, send }) => {
    const txHashes = await send("beginDefaultAdminTransfer", [target], (s) => {
      if (s.pendingAdmin === target) return false;
      requireAdmin(s, from);
      return true;
    });
    const schedules: AdminResult["schedules"] = {};
    for (const s of presentContracts(program)) {
      schedules[s] = (await readAdmin(chain, program, s, opts.contractsDir)).schedule;
    }
    const at = new Date().toISOString();
    return { txHashes, schedules, update: (p) => (p.pendingAdmin = { newAdmin: target, schedules, txHashes, at }) };
  });
}

/**
 * Accepts the pending DEFAULT_ADMIN_ROLE transfer on every contract with the new admin's key.
 * Before the schedule passes it throws TOO_EARLY with the time it may be accepted.
 */
export async function acceptAdmin(
  program: ProgramRecord,
  newAdminSigner: Signer,
  opts: AdminOptions = {},
): Promise<AdminResult> {
  return adminStage(program, newAdminSigner, opts, "accept", async ({ chain, from, states, send }) => {
    let now = await chain.now();
    const wall = Math.floor(Date.now() / 1000);
    if (opts.mineWhenDue && states.some((s) => s.schedule > now && s.schedule <= wall)) {
      const rpc = chain.provider as { send?: (m: string, p: unknown[]) => Promise<unknown> };
      await chain.call("evm_mine", () => rpc.send!("evm_mine", []));
      now = await chain.now();
    }
    const txHashes = await send("acceptDefaultAdminTransfer", [], (s) => {
      if (s.admin === from) return false;
      if (s.pendingAdmin !== from) {
        throw new DeployerError(
          "WRONG_KEY",
          `signer: ${from} is not the pending admin of ${s.contract} (${s.pendingAdmin})`,
        );
      }
      if (s.schedule > now) throw tooEarly(s, now);
      return true;
    });
    return {
      txHashes,
      schedules: {},
      update: (p) => {
        p.admin = from;
        delete p.pendingAdmin;
      },
    };
  });
}

/** TOO_EARLY: when `s`'s transfer may be accepted, and why a stale dev node may say so. */
function tooEarly(s: ContractAdminState, now: number): DeployerError {
  const when = new Date(s.schedule * 1000).toISOString();
  const stale =
    s.schedule <= Date.now() / 1000
      ? `; the chain's latest block is from ${new Date(now * 1000).toISOString()}: a node that mines only on transactions needs a new block first`
      : "";
  return new DeployerError(
    "TOO_EARLY",
    `${s.contract}: the admin transfer can be accepted after ${when} (${s.schedule})${stale}`,
    { details: { contract: s.contract, schedule: s.schedule, acceptAfter: when } },
  );
}

/**
 * Cancels the pending DEFAULT_ADMIN_ROLE transfer on every contract that has one, with the
 * current admin's key, and removes it from the record.
 */
export async function cancelAdminTransfer(
  program: ProgramRecord,
  adminSigner: Signer,
  opts: AdminOptions = {},
): Promise<AdminResult> {
  return adminStage(program, adminSigner, opts, "handover", async ({ from, send }) => {
    const txHashes = await send("cancelDefaultAdminTransfer", [], (s) => {
      if (s.pendingAdmin === ZeroAddress) return false;
      requireAdmin(s, from);
      return true;
    });
    return { txHashes, schedules: {}, update: (p) => delete p.pendingAdmin };
  });
}
