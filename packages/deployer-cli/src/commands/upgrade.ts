import { Command } from "commander";
import { formatLayoutDiff, upgrade, type UpgradeResult } from "@points/deployer";
import { withCommonOptions, type CommonOptions } from "../connection.js";
import { CliError, scrub } from "../errors.js";
import { printSummary, toJson } from "../output.js";
import { withStages, withStep } from "../progress.js";
import { context, programFromManifest } from "./context.js";
import { printSafeTransaction, safeProposalOptions, type SafeFlags } from "../safeProposal.js";
import { showingRefusal } from "../refusal.js";

interface UpgradeFlags extends SafeFlags {
  brand: string;
  contract: string;
  implementation: string;
  at?: string;
  call?: string;
  unsigned?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

function printDryRun(r: UpgradeResult): void {
  const d = r.dryRun!;
  const impl = d.implementation.reused
    ? `${d.implementation.address} (already deployed with this bytecode${d.implementation.from ? ` for ${d.implementation.from}` : ""}: reused)`
    : `would be deployed (simulated at ${d.implementation.address})`;
  const sim = d.simulation.ok ? "succeeds" : `fails: ${d.simulation.error}`;
  process.stdout.write(
    `dry run: nothing was sent\n\nstorage layout of ${r.contract} (deployed ${r.oldImplementation} | new):\n` +
      `${formatLayoutDiff(r.layout)}\n\n`,
  );
  printSummary("upgrade", {
    implementation: impl,
    to: d.transaction.to,
    from: `${d.transaction.from} (the admin)`,
    calldata: d.transaction.data,
    simulation: sim,
  });
}

function printAlreadyRunning(r: UpgradeResult): void {
  process.stdout.write(`${r.contract}: already running this code (${r.oldImplementation}): nothing sent\n`);
}

const reusedNote = (r: UpgradeResult) =>
  r.reusedFrom && r.reusedFrom !== "given"
    ? `already deployed for ${r.reusedFrom}: reused`
    : "already deployed: reused";

function printResult(r: UpgradeResult, from?: string): void {
  const { program: _record, layout: _layout, dryRun: _dry, ...shown } = r;
  const implementation = r.deployed
    ? `${r.newImplementation} (deployed by ${from}; any funded key may deploy it, it is harmless until a proxy points at it)`
    : `${r.newImplementation} (${reusedNote(r)})`;
  printSummary(r.tx ? `${r.contract} upgraded` : "unsigned upgrade (sign and send as the admin)", {
    ...shown,
    newImplementation: implementation,
  });
}

export function upgradeCommand(): Command {
  const cmd = new Command("upgrade")
    .summary("upgrade one contract of a program (storage layout checked against the deployed one first)")
    .description(
      "Reads the implementation the proxy runs on chain, finds its storage layout recorded in the manifest " +
        "(by runtime bytecode hash) and refuses a new implementation that does not extend it, is not UUPS-safe, " +
        "drops proxiableUUID or leaves its initializers enabled, BEFORE anything is sent. Then deploys the " +
        "implementation (unless --at, or the same bytecode is already deployed for this or another program or " +
        "release of the manifests) and sends upgradeToAndCall with " +
        "the program admin's key, or with --unsigned prints the transaction for the admin (e.g. a multisig). " +
        "--dry-run needs no key and sends nothing: it prints both layouts, the calldata and a simulation from the admin. " +
        "An upgrade to the code the proxy already runs sends nothing and says so. A refusal prints the layouts " +
        "side by side, each row saying why it is safe or not (with --json: the refusal and its rows as JSON).",
    )
    .requiredOption("--brand <name>", "the program's brand (looked up in the manifest)")
    .requiredOption("--contract <name>", "points, factory, collateralVault, pspVault or oracle")
    .requiredOption("--implementation <artifact>", "contract name of the new implementation in @points/contracts")
    .option("--at <address>", "the new implementation is already deployed at this address")
    .option("--call <calldata>", "calldata for upgradeToAndCall (default none)")
    .option(
      "--unsigned",
      "never send the upgrade: print the unsigned upgradeToAndCall, or when the admin is a Safe its Safe transaction",
    )
    .option("--dry-run", "send nothing: print the layouts, the calldata and the simulated result (no key needed)")
    .option("--json", "print the result as JSON");
  safeProposalOptions(cmd);
  withCommonOptions(cmd).action(async (o: CommonOptions & UpgradeFlags) => {
    if (o.unsigned && !o.at && !o.privateKey && !o.dryRun) {
      throw new CliError(
        "--unsigned deploys the new implementation first, which needs a funded key (any key; the implementation " +
          "is harmless until a proxy points at it): pass --private-key, or --at <address> of a deployed one",
      );
    }
    // A dry run, or --unsigned with --at, only reads; otherwise a key deploys (and maybe sends).
    const ctx = await context(o, !(o.dryRun || (o.unsigned && o.at)) || Boolean(o.privateKey));
    const program = await programFromManifest(ctx, o.brand);
    const opts = {
      signer: ctx.signer,
      provider: ctx.provider,
      send: !o.unsigned, // without --unsigned a non-admin key is an error, not a silent proposal
      implementation: o.at,
      call: o.call,
      contractsDir: o.contractsDir,
      store: ctx.store, // read for implementations other programs of the chain deployed
    };
    if (o.dryRun) {
      const result = await showingRefusal(o.json, () =>
        withStep(
          `dry run ${o.contract}`,
          () => upgrade(program, o.contract, o.implementation, { ...opts, dryRun: true }),
          scrub,
        ),
      );
      if (o.json) process.stdout.write(`${toJson({ ...result, program: undefined })}\n`);
      else if (result.alreadyRunning) printAlreadyRunning(result);
      else printDryRun(result);
      return;
    }
    const result = await showingRefusal(o.json, () =>
      withStages(
        ["upgrade"],
        ctx.store,
        (store) => upgrade(program, o.contract, o.implementation, { ...opts, store }),
        { unreported: "done", redact: scrub },
      ),
    );
    if (result.alreadyRunning && !o.json) return printAlreadyRunning(result);
    // An admin that is a Safe gets the Safe transaction of upgradeToAndCall, after the checks above.
    const u = result.unsignedTx;
    if (u && (await printSafeTransaction(ctx.provider, u.from, [{ to: u.to, data: u.data }], o))) return;
    if (o.json) process.stdout.write(`${toJson({ ...result, program: undefined })}\n`);
    else printResult(result, ctx.signer ? await ctx.signer.getAddress() : undefined);
  });
  return cmd;
}
