import { Command } from "commander";
import { formatLayoutDiff, validateUpgrade } from "@points/deployer";
import { withCommonOptions, type CommonOptions } from "../connection.js";
import { scrub } from "../errors.js";
import { toJson } from "../output.js";
import { withStep } from "../progress.js";
import { context, programFromManifest } from "./context.js";
import { showingRefusal } from "../refusal.js";

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
        "Exit 0 when the upgrade is safe, 5 when it is refused. A proxy already running this code is said so " +
        "(exit 0: an upgrade would send nothing). Prints the layouts side by side, each row saying why it is " +
        "safe or not, also on refusal; with --json the report (or the refusal and its rows) as JSON on stdout.",
    )
    .requiredOption("--brand <name>", "the program's brand (looked up in the manifest)")
    .requiredOption("--contract <name>", "points, factory, collateralVault, pspVault or oracle")
    .requiredOption("--implementation <artifact>", "contract name of the new implementation")
    .option("--at <address>", "also check this deployed implementation (code, proxiableUUID, initializers)")
    .option("--json", "print the report as JSON");
  withCommonOptions(cmd, { signer: false }).action(async (o: CommonOptions & ValidateFlags) => {
    const ctx = await context(o, false);
    const program = await programFromManifest(ctx, o.brand);
    const report = await showingRefusal(o.json, () =>
      withStep(
        `validate ${o.contract}`,
        () =>
          validateUpgrade(program, o.contract, o.implementation, ctx.provider, {
            implementation: o.at,
            contractsDir: o.contractsDir,
            store: ctx.store,
          }),
        scrub,
      ),
    );
    if (o.json) process.stdout.write(`${toJson({ ok: true, ...report })}\n`);
    else {
      const verdict = report.alreadyRunning
        ? `${report.contract}: already running this code (${report.oldImplementation}): an upgrade would send nothing`
        : `${report.newArtifact} may replace ${report.deployedArtifact} (${report.oldImplementation}) behind ${report.contract}`;
      const reuse = report.reuse
        ? `implementation: ${report.reuse} (already deployed${report.reusedFrom && report.reusedFrom !== "given" ? ` for ${report.reusedFrom}` : ""}: reused)\n`
        : "";
      process.stdout.write(`${verdict}\n${reuse}${formatLayoutDiff(report.layout)}\n`);
    }
  });
  return cmd;
}
