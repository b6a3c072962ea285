import { isDevChainId } from "@points/contracts/program";
import { Command } from "commander";
import {
  acceptAdmin,
  adminStatus,
  adminTransactions,
  cancelAdminTransfer,
  handoverAdmin,
  type AdminAction,
  type AdminResult,
  type DeploymentStore,
  type ProgramRecord,
} from "@points/deployer";
import { withCommonOptions, type CommonOptions } from "../connection.js";
import { scrub } from "../errors.js";
import { printSummary, toJson } from "../output.js";
import { withStages, withStep } from "../progress.js";
import { context, programFromManifest, type Context } from "./context.js";
import { printSafeTransaction, safeProposalOptions, type SafeFlags } from "../safeProposal.js";

type Flags = CommonOptions & SafeFlags & { brand: string; unsigned?: boolean; json?: boolean };

function summary(title: string, r: AdminResult) {
  const when = Object.entries(r.schedules).map(([k, t]) => [k, new Date(Number(t) * 1000).toISOString()]);
  printSummary(title, { transactions: r.txHashes.join(" ") || "none needed", ...Object.fromEntries(when) });
}

/** Mining a block is a development-node convenience: a dev chain id over a loopback RPC only. */
function mayMine(ctx: Context): boolean {
  const host = new URL(ctx.opts.rpcUrl).hostname;
  return ctx.dev && ["127.0.0.1", "localhost", "[::1]", "::1"].includes(host) && isDevChainId(ctx.chainId);
}

async function printUnsigned(o: Flags, action: AdminAction, newAdmin?: string): Promise<void> {
  const ctx = await context(o, false);
  const program = await programFromManifest(ctx, o.brand);
  const txs = await withStep(
    `${action} (unsigned)`,
    () => adminTransactions(program, action, ctx.provider, { newAdmin }),
    scrub,
  );
  // A Safe signer gets one Safe transaction for all its calls (batched through MultiSendCallOnly).
  const from = txs[0]?.from;
  if (from && (await printSafeTransaction(ctx.provider, from, txs, o))) return;
  if (o.json) process.stdout.write(`${toJson(txs)}\n`);
  else {
    const signer = txs[0]?.from ?? "nobody (nothing to do)";
    process.stdout.write(`${txs.length} unsigned transaction(s) for ${signer} to sign and send, in any order:\n`);
    for (const t of txs) process.stdout.write(`  ${t.contract}: to ${t.to} data ${t.data}\n`);
  }
}

const brandOption = (cmd: Command) =>
  cmd.requiredOption("--brand <name>", "the program's brand (looked up in the manifest)");
const unsignedOption = (cmd: Command, who: string) =>
  cmd
    .option(
      "--unsigned",
      `send nothing: print the transactions for ${who} to sign (a hardware wallet), or when ${who} is a Safe its Safe transaction; no key`,
    )
    .option("--json", "print the result as JSON");

/**
 * A handover step signed here, or with --unsigned printed for another signer: `unsigned` names
 * the action, `run` sends it as `stage`, `title` heads the summary.
 */
function signedStep<O extends Flags>(
  cmd: Command,
  description: string,
  signer: string,
  stage: "handover" | "accept",
  unsigned: (o: O) => { action: AdminAction; newAdmin?: string },
  run: (program: ProgramRecord, ctx: Context, store: DeploymentStore, o: O) => Promise<AdminResult>,
  title: (r: AdminResult, o: O) => string,
): Command {
  brandOption(cmd).description(description);
  safeProposalOptions(unsignedOption(cmd, signer));
  return withCommonOptions(cmd).action(async (o: O) => {
    if (o.unsigned) {
      const { action, newAdmin } = unsigned(o);
      return printUnsigned(o, action, newAdmin);
    }
    const ctx = await context(o, true);
    const program = await programFromManifest(ctx, o.brand);
    const result = await withStages([stage], ctx.store, (store) => run(program, ctx, store, o), {
      unreported: "done",
      redact: scrub,
    });
    summary(title(result, o), result);
  });
}

export function handoverCommand(): Command {
  const cmd = new Command("handover")
    .summary("move DEFAULT_ADMIN_ROLE of every contract to a new admin (two steps)")
    .description(
      "Two-step admin transfer (OpenZeppelin AccessControlDefaultAdminRules) on every contract of a " +
        "program: `begin` is signed by the current admin, `accept` by the new admin once the admin delay has " +
        "passed, `cancel` by the current admin; `status` shows where it stands. Every signing step takes " +
        "--unsigned to print the transactions for another signer instead.",
    );

  const begin = signedStep(
    new Command("begin").requiredOption("--new-admin <address>", "the new admin, e.g. a multisig"),
    "start the transfer of DEFAULT_ADMIN_ROLE to --new-admin (signed by the current admin)",
    "the current admin",
    "handover",
    (o: Flags & { newAdmin: string }) => ({ action: "begin", newAdmin: o.newAdmin }),
    (program, ctx, store, o) => handoverAdmin(program, o.newAdmin, ctx.signer!, { store }),
    (r, o) => `admin transfer to ${o.newAdmin} started; the new admin accepts after:`,
  );
  const accept = signedStep(
    new Command("accept"),
    "accept the pending transfer (signed by the new admin); on a local development node a block is mined first when the delay has passed",
    "the pending admin",
    "accept",
    () => ({ action: "accept" }),
    (program, ctx, store) => acceptAdmin(program, ctx.signer!, { store, mineWhenDue: mayMine(ctx) }),
    (r) => `admin transfer accepted: ${r.program.admin} is the admin`,
  );
  const cancel = signedStep(
    new Command("cancel"),
    "cancel the pending transfer on every contract (signed by the current admin)",
    "the current admin",
    "handover",
    () => ({ action: "cancel" }),
    (program, ctx, store) => cancelAdminTransfer(program, ctx.signer!, { store }),
    () => "admin transfer cancelled",
  );

  const status = brandOption(new Command("status"))
    .description("each contract's admin, pending admin and schedule, and whether accept would succeed now (no key)")
    .option("--json", "print the status as JSON");
  withCommonOptions(status, { signer: false }).action(async (o: Flags) => {
    const ctx = await context(o, false);
    const program = await programFromManifest(ctx, o.brand);
    const s = await withStep(`status ${o.brand}`, () => adminStatus(program, ctx.provider), scrub);
    if (o.json) {
      process.stdout.write(`${toJson(s)}\n`);
      return;
    }
    const lines = s.contracts.map((c) =>
      c.schedule === 0
        ? `  ${c.contract}: admin ${c.admin}, no pending transfer`
        : `  ${c.contract}: admin ${c.admin}, pending ${c.pendingAdmin} after ${new Date(c.schedule * 1000).toISOString()}`,
    );
    const verdict = !s.pendingAdmin
      ? "no admin transfer is pending"
      : s.acceptableNow
        ? `${s.pendingAdmin} can accept now`
        : `${s.pendingAdmin} cannot accept yet (chain time ${new Date(s.chainTime * 1000).toISOString()})`;
    process.stdout.write(`admin of "${o.brand}": ${verdict}\n${lines.join("\n")}\n`);
  });

  return cmd.addCommand(begin).addCommand(accept).addCommand(cancel).addCommand(status);
}
