import { formatEther, getAddress } from "ethers";
import type { ExecutorWallet } from "@points/signers";
import type { Db } from "../db/db.js";
import type { ChainClient } from "../chain/client.js";
import { safeTxAnswer } from "../chain/safe.js";
import { safeTxFields } from "@points/contracts/program/safe";
import { SafeProposals } from "../safe/proposals.js";
import { ACCESS, executorSlots, hasRole, roleName, routeFor, type Route, type Slot } from "./roles.js";

/** Exit codes of `points-api executor rotate|retire` (packages/api/README.md#rotating-the-executor-key). */
export const EXIT = { OK: 0, FAILED: 1, USAGE: 2, WAITING: 3, REFUSED: 4 } as const;

export interface RotationIo {
  db: Db;
  chain: ChainClient;
  /** The keys this process holds for the chain (the EXECUTOR_* signer settings). */
  wallets: ExecutorWallet[];
  /** Files Safe proposals as this API key id or session:<email>; unset: Safe transactions are printed. */
  proposalOwner?: string;
  proposalCap: number;
  out: (line: string) => void;
}

type Call = "grantRole" | "revokeRole" | "renounceRole";
interface Step {
  slot: Slot;
  call: Call;
  account: string;
  route: Route;
}

const short = (slot: Slot) => `${slot.label} ${slot.contract}`;
const what = (s: Step) => `${s.call} ${roleName(s.slot.role)} ${s.account} on ${short(s.slot)}`;
const dataOf = (s: Step) => ACCESS.encodeFunctionData(s.call, [s.slot.role, s.account]);

function describe(route: Route): string {
  if (route.how === "send") return `send, signed by ${route.signer} (a key held)`;
  if (route.how === "propose") return `Safe proposal to ${route.safe.address}`;
  const who = route.signers.length ? route.signers.join(" or ") : `any holder of ${roleName(route.adminRole)}`;
  return `print, to be signed by ${who}`;
}

function printPlan(io: RotationIo, title: string, rows: [Slot, string][]): void {
  io.out(title);
  if (rows.length === 0) io.out("  (nothing: the old executor holds no role the registry knows of on this chain)");
  for (const [slot, action] of rows)
    io.out(`  ${`${slot.label}`.padEnd(24)} ${slot.contract}  ${roleName(slot.role).padEnd(18)} ${action}`);
}

/**
 * Grants `to` every role `from` holds on the chain's Factories and ProgramFactories, each signed
 * by whoever administers that role: a held key sends, a Safe gets a proposal, anyone else gets
 * the unsigned call printed. Roles `to` already holds are skipped, so a re-run only does what is left.
 */
export async function rotate(io: RotationIo, from: string, to: string): Promise<number> {
  const steps: Step[] = [];
  const rows: [Slot, string][] = [];
  for (const slot of await executorSlots(io.db, String(io.chain.config.chainId))) {
    if (!(await hasRole(io.chain, slot.contract, slot.role, from))) continue;
    if (await hasRole(io.chain, slot.contract, slot.role, to)) {
      rows.push([slot, "in place"]);
      continue;
    }
    const route = await routeFor(io.chain, slot, io.wallets);
    steps.push({ slot, call: "grantRole", account: to, route });
    rows.push([slot, `grant: ${describe(route)}`]);
  }
  printPlan(io, `plan: chain ${io.chain.config.chainId}, executor ${from} -> ${to}`, rows);
  return execute(io, steps);
}

/**
 * Takes `old`'s roles away once `current` (the executor now configured) holds every one of them:
 * `old` renounces its own roles when its key is held, else the role's admin revokes them.
 * Refused (EXIT.REFUSED, nothing sent) while any is missing.
 */
export async function retire(io: RotationIo, old: string, current: string): Promise<number> {
  const held: Slot[] = [];
  const missing: Slot[] = [];
  for (const slot of await executorSlots(io.db, String(io.chain.config.chainId))) {
    if (!(await hasRole(io.chain, slot.contract, slot.role, old))) continue;
    held.push(slot);
    if (!(await hasRole(io.chain, slot.contract, slot.role, current))) missing.push(slot);
  }
  if (missing.length > 0) {
    io.out(`refused: ${current} does not hold every role ${old} holds; nothing was sent. Missing:`);
    for (const slot of missing) io.out(`  ${roleName(slot.role)} on ${short(slot)}`);
    io.out(
      `run \`points-api executor rotate --chain ${io.chain.config.chainId} --to ${current}\` and finish its steps`,
    );
    return EXIT.REFUSED;
  }
  const own = await ownWallet(io.wallets, old);
  const steps: Step[] = [];
  for (const slot of held) {
    const route: Route = own ? { how: "send", wallet: own, signer: old } : await routeFor(io.chain, slot, io.wallets);
    steps.push({ slot, call: own ? "renounceRole" : "revokeRole", account: old, route });
  }
  printPlan(
    io,
    `plan: chain ${io.chain.config.chainId}, retire ${old} (${current} holds all its roles)`,
    steps.map((s) => [s.slot, `${s.call === "renounceRole" ? "renounce" : "revoke"}: ${describe(s.route)}`]),
  );
  const code = await execute(io, steps);
  const balance = await io.chain.provider.getBalance(old);
  io.out(`${old} still holds ${formatEther(balance)} native (${balance} wei) on chain ${io.chain.config.chainId}`);
  return code;
}

async function ownWallet(wallets: ExecutorWallet[], address: string): Promise<ExecutorWallet | undefined> {
  for (const w of wallets) if ((await w.getAddress()) === getAddress(address)) return w;
  return undefined;
}

/** Runs the steps in order; a failed send stops the run (EXIT.FAILED), anything left to others is EXIT.WAITING. */
async function execute(io: RotationIo, steps: Step[]): Promise<number> {
  let waiting = 0;
  for (const step of steps) {
    const { route } = step;
    const data = dataOf(step);
    if (route.how === "send") {
      const from = route.signer;
      try {
        // A key that may not make the change is found here, before anything is signed.
        const gasLimit = await io.chain.provider.estimateGas({ from, to: step.slot.contract, data });
        const tx = await route.wallet.sendTransaction({ to: step.slot.contract, data, gasLimit });
        const receipt = await tx.wait();
        if (receipt?.status !== 1) throw new Error(`transaction ${tx.hash} reverted`);
        io.out(`sent: ${what(step)} (tx ${tx.hash})`);
      } catch (e) {
        io.out(`failed: ${what(step)}, signed by ${from}: ${(e as Error).message.split("\n")[0]}`);
        return EXIT.FAILED;
      }
    } else if (route.how === "propose") {
      waiting++;
      await propose(io, step, data, route.safe);
    } else {
      waiting++;
      const who = route.signers.length ? route.signers.join(" or ") : `a holder of ${roleName(route.adminRole)}`;
      io.out(`unsigned: ${what(step)}; to=${step.slot.contract} data=${data} value=0, to be signed by ${who}`);
    }
  }
  io.out(
    waiting === 0
      ? `done: ${steps.length} change(s) made`
      : `waiting: ${waiting} change(s) need another signer (above); run again once they are executed`,
  );
  return waiting === 0 ? EXIT.OK : EXIT.WAITING;
}

/**
 * Files the Safe transaction as a proposal of `io.proposalOwner` (the API's Safe proposals:
 * owners sign and execute it through the API). An open proposal of the same call is reused, so
 * a re-run files nothing twice; the nonce follows the Safe's open proposals.
 */
async function propose(io: RotationIo, step: Step, data: string, safe: Parameters<typeof safeTxAnswer>[1]) {
  const chainId = String(io.chain.config.chainId);
  const to = getAddress(step.slot.contract);
  if (!io.proposalOwner) {
    io.out(
      `unsigned: ${what(step)}; Safe ${safe.address} (threshold ${safe.threshold}) executes to=${to} data=${data} value=0; pass --proposal-owner to file it as a proposal`,
    );
    return;
  }
  const store = new SafeProposals(io.db);
  const page = await store.list(io.proposalOwner, { chainId, safe: safe.address }, { limit: 1000 });
  const open = (page?.items ?? []).filter((p) => p.nonce >= safe.nonce);
  const same = open.find((p) => getAddress(p.tx.to) === to && p.tx.data === data);
  if (same) {
    io.out(`proposed already: ${what(step)}; proposal ${same.id} of Safe ${safe.address} (nonce ${same.nonce})`);
    return;
  }
  const nonce = open.reduce((n, p) => (p.nonce >= n ? p.nonce + 1n : n), safe.nonce);
  const tx = safeTxFields({ to, data }, nonce);
  const { safeTxHash } = safeTxAnswer(io.chain.chainId, safe, tx);
  const createdBlock = await io.chain.provider.getBlockNumber();
  const added = await store.insert(
    { owner: io.proposalOwner, chainId, safe: safe.address, nonce, safeTxHash, tx, createdBlock },
    { cap: io.proposalCap, openFrom: safe.nonce },
  );
  if (typeof added === "string")
    throw new Error(`Safe ${safe.address}: proposal of ${what(step)} not filed (${added})`);
  io.out(
    `proposed: ${what(step)}; proposal ${added.id} of Safe ${safe.address} (nonce ${nonce}, ${safe.threshold} signature(s) needed)`,
  );
}
