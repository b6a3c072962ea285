import { Command } from "commander";
import { formatLayoutDiff, validateUpgrade } from "../../index.js";
import { withCommonOptions, type CommonOptions } from "../connection.js";
import { scrub } from "../errors.js";
import { toJson } from "../output.js";
import { withStep } from "../progress.js";
import { context, programFromManifest } from "./context.js";

interface ValidateFlags {
  brand: string;
  contract: string;
  implementation: string;
  at?: string;
  json?: boolean;
}

export function validateCommand(): Command {
  const cmd = new Command("validate")
    .summary("check an upgrade's storage layout and safety against the deployed program (for CI)")
    .description(
      "The checks `upgrade` runs before sending anything, on their own: the implementation the proxy runs on " +
        "chain must have its layout recorded in the manifest, and the new implementation must extend that " +
        "layout, be UUPS-safe, keep proxiableUUID and disable its initializers. Needs no key; sends nothing. " +
        "Exit 0 when the upgrade is safe, 5 when it is refused.",
    )
    .requiredOption("--brand <name>", "the program's brand (looked up in the manifest)")
    .requiredOption("--contract <name>", "points, factory, collateralVault, pspVault or oracle")
    .requiredOption("--implementation <artifact>", "contract name of the new implementation")
    .option("--at <address>", "also check this deployed implementation (code, proxiableUUID, initializers)")
    .option("--json", "print the report as JSON");
  withCommonOptions(cmd, { signer: false }).action(async (o: CommonOptions & ValidateFlags) => {
    const ctx = await context(o, false);
    const program = await programFromManifest(ctx, o.brand);
    const report = await withStep(
      `validate ${o.contract}`,
      () =>
        validateUpgrade(program, o.contract, o.implementation, ctx.provider, {
          implementation: o.at,
          contractsDir: o.contractsDir,
        }),
      scrub,
    );
    if (o.json) process.stdout.write(`${toJson(report)}\n`);
    else {
      process.stdout.write(
        `${report.newArtifact} may replace ${report.deployedArtifact} (${report.oldImplementation}) behind ${report.contract}\n` +
          `${formatLayoutDiff(report.layout)}\n`,
      );
    }
  });
  return cmd;
}
