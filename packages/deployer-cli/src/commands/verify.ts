import { Command } from "commander";
import { verifyProgram, type AdminAccount } from "@points/deployer";
import { withCommonOptions, type CommonOptions } from "../connection.js";
import { scrub } from "../errors.js";
import { printSummary, toJson } from "../output.js";
import { withStep } from "../progress.js";
import { context, programFromManifest } from "./context.js";

/** An admin as one line: a wallet's address, or a Safe's with its threshold and owners. */
const shown = (a: AdminAccount) =>
  a.safe
    ? `${a.address} (Safe ${a.safe.version}, ${a.safe.threshold} of ${a.safe.owners.length}: ${a.safe.owners.join(", ")})`
    : `${a.address} (a wallet)`;

export function verifyCommand(): Command {
  const cmd = new Command("verify")
    .summary("check a deployed program against the chain (roles, implementations)")
    .description(
      "Reads every role of every contract and every implementation address back from the chain and " +
        "compares them with the manifest and the roles at birth; exits non-zero on any difference. Reports the " +
        "admin, and for a Safe its owners and threshold. Needs no key.",
    )
    .requiredOption("--brand <name>", "the program's brand (looked up in the manifest)")
    .option("--json", "print the report as JSON");
  withCommonOptions(cmd, { signer: false }).action(async (o: CommonOptions & { brand: string; json?: boolean }) => {
    const ctx = await context(o, false);
    const program = await programFromManifest(ctx, o.brand);
    const report = await withStep(
      `verify ${o.brand}`,
      () => verifyProgram(program, ctx.provider, { contractsDir: o.contractsDir }),
      scrub,
    );
    if (o.json) process.stdout.write(`${toJson(report)}\n`);
    else
      printSummary(`program "${o.brand}" matches the chain (${report.checked} facts checked)`, {
        admin: shown(report.admin),
        pendingAdmin: report.pendingAdmin && shown(report.pendingAdmin),
      });
  });
  return cmd;
}
