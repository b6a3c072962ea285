import { formatEther, getAddress, id } from "ethers";
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
  /** The keys this process holds for the chain (the EXECUTOR_* signer settings): the executor key first, then the lanes. */
  wallets: ExecutorWallet[];
  /** Files Safe proposals as this API key id or session:<email>; unset: Safe transactions are printed. */
  proposalOwner?: string;
  proposalCap: number;
  out: (line: string) => void;
  /** Where a refusal over the arguments goes (the CLI's stderr). */
  err: (line: string) => void;
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

const OPERATOR_ROLE = id("OPERATOR_ROLE");

/**
 * A lane key (a key of the EXECUTOR settings after the first) holds OPERATOR_ROLE only: the
 * executor key grants it so the lane may deploy programs (src/core/engine/operators.ts). An
 * address holding anything else (EXECUTOR_ROLE, DEFAULT_ADMIN_ROLE) is the executor key.
 */
const isLaneKey = (held: Slot[]) => held.length > 0 && held.every((s) => s.role === OPERATOR_ROLE);

/** The keys of the EXECUTOR settings, each with its place: "K0 (executor), K1 (lane 1)". */
async function configuredKeys(io: RotationIo): Promise<string> {
  const keys = await Promise.all(io.wallets.map((w) => w.getAddress()));
  return keys.length
    ? keys.map((k, i) => `${k} (${i === 0 ? "executor" : `lane ${i}`})`).join(", ")
    : "none for this chain";
}

/**
 * Grants `to` every role `from` holds on the chain's Factories and ProgramFactories, each signed
 * by whoever administers that role: a held key sends, a Safe gets a proposal, anyone else gets
 * the unsigned call printed. Roles `to` already holds are skipped, so a re-run only does what is
 * left. `from` is the executor key or a lane key (then only its OPERATOR_ROLEs move); an address
 * holding none of these roles is refused (EXIT.USAGE, nothing sent).
 */
export async function rotate(io: RotationIo, from: string, to: string): Promise<number> {
  const chainId = String(io.chain.config.chainId);
  const held: Slot[] = [];
  for (const slot of await executorSlots(io.db, chainId))
    if (await hasRole(io.chain, slot.contract, slot.role, from)) held.push(slot);
  if (held.length === 0) {
    io.err(
      `${from} holds no role of an executor or lane key on chain ${chainId} (EXECUTOR_ROLE on a registered program's Factory, OPERATOR_ROLE or DEFAULT_ADMIN_ROLE on a ProgramFactory); nothing was sent. The keys of the EXECUTOR settings: ${await configuredKeys(io)}`,
    );
    return EXIT.USAGE;
  }
  const steps: Step[] = [];
  const rows: [Slot, string][] = [];
  for (const slot of held) {
    if (await hasRole(io.chain, slot.contract, slot.role, to)) {
      rows.push([slot, "in place"]);
      continue;
    }
    const route = await routeFor(io.chain, slot, io.wallets);
    steps.push({ slot, call: "grantRole", account: to, route });
    rows.push([slot, `grant: ${describe(route)}`]);
  }
  printPlan(io, `plan: chain ${chainId}, ${isLaneKey(held) ? "lane key" : "executor"} ${from} -> ${to}`, rows);
  return execute(io, steps);
}

/**
 * Takes `old`'s roles away once the keys now configured hold every one of them: for the executor
 * key, the first key of `keys` (the EXECUTOR settings); for a lane key, every key of `keys` but
 * `old` (each lane deploys through the ProgramFactories, so its successor is among them). `old`
 * renounces its own roles when its key is held, else the role's admin revokes them.
 * Refused (EXIT.REFUSED, nothing sent) while any is missing.
 */
export async function retire(io: RotationIo, old: string, keys: string[]): Promise<number> {
  const chainId = String(io.chain.config.chainId);
  const current = keys[0]!;
  const held: Slot[] = [];
  for (const slot of await executorSlots(io.db, chainId))
    if (await hasRole(io.chain, slot.contract, slot.role, old)) held.push(slot);
  const lane = isLaneKey(held);
  const successors = lane ? [...new Set(keys.filter((k) => k !== old))] : [current];
  const missing: [Slot, string[]][] = [];
  for (const slot of held) {
    const lacking: string[] = [];
    for (const key of successors) if (!(await hasRole(io.chain, slot.contract, slot.role, key))) lacking.push(key);
    if (lacking.length) missing.push([slot, lacking]);
  }
  if (missing.length > 0 && !lane) {
    io.out(`refused: ${current} does not hold every role ${old} holds; nothing was sent. Missing:`);
    for (const [slot] of missing) io.out(`  ${roleName(slot.role)} on ${short(slot)}`);
    io.out(`run \`points-api executor rotate --chain ${chainId} --to ${current}\` and finish its steps`);
    return EXIT.REFUSED;
  }
  if (missing.length > 0) {
    io.out(
      `refused: the keys of the EXECUTOR settings do not all hold every role lane key ${old} holds; nothing was sent. Missing:`,
    );
    for (const [slot, lacking] of missing) io.out(`  ${roleName(slot.role)} on ${short(slot)}: ${lacking.join(", ")}`);
    for (const key of successors.filter((k) => missing.some(([, lacking]) => lacking.includes(k))))
      io.out(`run \`points-api executor rotate --chain ${chainId} --from ${old} --to ${key}\` and finish its steps`);
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
    lane
      ? `plan: chain ${chainId}, retire lane key ${old} (every other key of the EXECUTOR settings holds all its roles)`
      : `plan: chain ${chainId}, retire ${old} (${current} holds all its roles)`,
    steps.map((s) => [s.slot, `${s.call === "renounceRole" ? "renounce" : "revoke"}: ${describe(s.route)}`]),
  );
  const code = await execute(io, steps);
  const balance = await io.chain.provider.getBalance(old);
  io.out(`${old} still holds ${formatEther(balance)} native (${balance} wei) on chain ${chainId}`);
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
