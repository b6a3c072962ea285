import { getAddress, isAddress, ZeroAddress, type Signer } from "ethers";
import { Chain, type ChainOptions } from "./chain.js";
import { DeployerError } from "./errors.js";
import { runStage } from "./stage.js";
import { noStore } from "./store.js";
import {
  PROGRAM_CONTRACTS,
  type DeploymentStore,
  type ProgramContract,
  type ProgramRecord,
  type StageName,
} from "./types.js";
import { programContract } from "./verify.js";

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

const keysOf = (p: ProgramRecord) => PROGRAM_CONTRACTS.filter((k) => p.contracts[k]);

/**
 * Sends `fn(contract)` on every contract that `needs` it, back to back with local nonces (each
 * simulated first), then waits for all receipts.
 */
async function sendAll(
  chain: Chain,
  signer: Signer,
  program: ProgramRecord,
  stage: StageName,
  store: DeploymentStore,
  method: string,
  args: unknown[],
  needs: (key: ProgramContract) => Promise<boolean>,
  dir?: string,
): Promise<string[]> {
  const ctx = { chainId: program.chainId, brand: program.brand };
  const from = await chain.addressOf(signer);
  const todo: ProgramContract[] = [];
  for (const key of keysOf(program)) if (await needs(key)) todo.push(key);
  const gas: bigint[] = [];
  for (const key of todo) {
    const fn = programContract(program, key, signer, dir).getFunction(method);
    gas.push(await chain.call(`simulate ${key}.${method}`, () => fn.estimateGas(...args)));
  }
  for (const [i, key] of todo.entries()) chain.assertGasCap((gas[i] * 12n) / 10n, `${key}.${method}`);
  let nonce = await chain.settle(from);
  const hashes: string[] = [];
  for (const [i, key] of todo.entries()) {
    const fn = programContract(program, key, signer, dir).getFunction(method);
    const tx = await chain.call(`send ${key}.${method}`, () =>
      fn.send(...args, { nonce: nonce++, gasLimit: (gas[i] * 12n) / 10n }),
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
}

/** Runs `body` as `stage` of the program's flow. */
function staged<T>(store: DeploymentStore, p: ProgramRecord, stage: StageName, body: () => Promise<T>): Promise<T> {
  return runStage(store, { chainId: p.chainId, brand: p.brand }, stage, async () => ({ value: await body() }));
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
  if (!isAddress(newAdmin) || newAdmin.toLowerCase() === ZeroAddress) {
    throw new DeployerError("INVALID_CONFIG", `newAdmin: ${newAdmin} is not a non-zero address`);
  }
  const target = getAddress(newAdmin);
  const store = opts.store ?? noStore;
  const chain = Chain.of(adminSigner, opts);
  return staged(store, program, "handover", async () => {
    const from = await chain.addressOf(adminSigner);
    const read = (key: ProgramContract) => programContract(program, key, chain.provider, opts.contractsDir);
    const hashes = await sendAll(
      chain,
      adminSigner,
      program,
      "handover",
      store,
      "beginDefaultAdminTransfer",
      [target],
      async (key) => {
        const [pending] = await chain.call(`${key}.pendingDefaultAdmin`, () => read(key).pendingDefaultAdmin());
        if (getAddress(pending) === target) return false;
        const admin = getAddress(await chain.call(`${key}.defaultAdmin`, () => read(key).defaultAdmin()));
        if (admin !== from)
          throw new DeployerError("WRONG_KEY", `signer: ${from} is not the admin (${admin}) of ${key}`);
        return true;
      },
      opts.contractsDir,
    );
    const schedules: AdminResult["schedules"] = {};
    for (const key of keysOf(program)) {
      const [, schedule] = await chain.call(`${key}.pendingDefaultAdmin`, () => read(key).pendingDefaultAdmin());
      schedules[key] = Number(schedule);
    }
    const updated: ProgramRecord = structuredClone(program);
    updated.pendingAdmin = { newAdmin: target, schedules, txHashes: hashes, at: new Date().toISOString() };
    await store.saveProgram(updated);
    return { txHashes: hashes, schedules, program: updated };
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
  const store = opts.store ?? noStore;
  const chain = Chain.of(newAdminSigner, opts);
  return staged(store, program, "accept", async () => {
    const from = await chain.addressOf(newAdminSigner);
    const read = (key: ProgramContract) => programContract(program, key, chain.provider, opts.contractsDir);
    let now = await chain.now();
    if (opts.mineWhenDue) {
      const wall = Math.floor(Date.now() / 1000);
      const due = await Promise.all(
        keysOf(program).map(async (key) => {
          const [, schedule] = await chain.call(`${key}.pendingDefaultAdmin`, () => read(key).pendingDefaultAdmin());
          return Number(schedule) > now && Number(schedule) <= wall;
        }),
      );
      if (due.some(Boolean)) {
        const rpc = chain.provider as { send?: (m: string, p: unknown[]) => Promise<unknown> };
        await chain.call("evm_mine", () => rpc.send!("evm_mine", []));
        now = await chain.now();
      }
    }
    const hashes = await sendAll(
      chain,
      newAdminSigner,
      program,
      "accept",
      store,
      "acceptDefaultAdminTransfer",
      [],
      async (key) => {
        if (getAddress(await chain.call(`${key}.defaultAdmin`, () => read(key).defaultAdmin())) === from) return false;
        const [pending, schedule] = await chain.call(`${key}.pendingDefaultAdmin`, () =>
          read(key).pendingDefaultAdmin(),
        );
        if (getAddress(pending) !== from) {
          throw new DeployerError("WRONG_KEY", `signer: ${from} is not the pending admin of ${key} (${pending})`);
        }
        if (Number(schedule) > now) {
          const when = new Date(Number(schedule) * 1000).toISOString();
          const stale =
            Number(schedule) <= Date.now() / 1000
              ? `; the chain's latest block is from ${new Date(now * 1000).toISOString()}: a node that mines only on transactions needs a new block first`
              : "";
          throw new DeployerError(
            "TOO_EARLY",
            `${key}: the admin transfer can be accepted after ${when} (${schedule})${stale}`,
            {
              details: { contract: key, schedule: Number(schedule), acceptAfter: when },
            },
          );
        }
        return true;
      },
      opts.contractsDir,
    );
    const updated: ProgramRecord = structuredClone(program);
    updated.admin = from;
    delete updated.pendingAdmin;
    await store.saveProgram(updated);
    return { txHashes: hashes, schedules: {}, program: updated };
  });
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
  const store = opts.store ?? noStore;
  const chain = Chain.of(adminSigner, opts);
  return staged(store, program, "handover", async () => {
    const from = await chain.addressOf(adminSigner);
    const read = (key: ProgramContract) => programContract(program, key, chain.provider, opts.contractsDir);
    const hashes = await sendAll(
      chain,
      adminSigner,
      program,
      "handover",
      store,
      "cancelDefaultAdminTransfer",
      [],
      async (key) => {
        const [pending] = await chain.call(`${key}.pendingDefaultAdmin`, () => read(key).pendingDefaultAdmin());
        if (getAddress(pending) === ZeroAddress) return false;
        const admin = getAddress(await chain.call(`${key}.defaultAdmin`, () => read(key).defaultAdmin()));
        if (admin !== from)
          throw new DeployerError("WRONG_KEY", `signer: ${from} is not the admin (${admin}) of ${key}`);
        return true;
      },
      opts.contractsDir,
    );
    const updated: ProgramRecord = structuredClone(program);
    delete updated.pendingAdmin;
    await store.saveProgram(updated);
    return { txHashes: hashes, schedules: {}, program: updated };
  });
}
