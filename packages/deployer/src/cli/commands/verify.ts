import { Command } from "commander";
import { verifyProgram } from "../../index.js";
import { withCommonOptions, type CommonOptions } from "../connection.js";
import { scrub } from "../errors.js";
import { printSummary, toJson } from "../output.js";
import { withStep } from "../progress.js";
import { context, programFromManifest } from "./context.js";

export function verifyCommand(): Command {
  const cmd = new Command("verify")
    .summary("check a deployed program against the chain (roles, implementations)")
    .description(
      "Reads every role of every contract and every implementation address back from the chain and " +
        "compares them with the manifest and the roles at birth; exits non-zero on any difference. Needs no key.",
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
    else printSummary(`program "${o.brand}" matches the chain (${report.checked} facts checked)`, {});
  });
  return cmd;
}
