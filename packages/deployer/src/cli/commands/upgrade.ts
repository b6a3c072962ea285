import { Command } from "commander";
import { upgrade } from "../../index.js";
import { withCommonOptions, type CommonOptions } from "../connection.js";
import { scrub } from "../errors.js";
import { printSummary, toJson } from "../output.js";
import { withStep } from "../progress.js";
import { context, programFromManifest } from "./context.js";

interface UpgradeFlags {
  brand: string;
  contract: string;
  implementation: string;
  unsigned?: boolean;
  json?: boolean;
}

export function upgradeCommand(): Command {
  const cmd = new Command("upgrade")
    .summary("upgrade one contract of a program (storage layout checked first)")
    .description(
      "Validates the new implementation's storage layout and upgrade safety with OpenZeppelin's " +
        "upgrades tooling BEFORE anything is sent; an unsafe upgrade is refused with the problem named. " +
        "Then sends upgradeToAndCall with the program admin's key, or with --unsigned prints the " +
        "transaction for the admin (e.g. a multisig) to sign.",
    )
    .requiredOption("--brand <name>", "the program's brand (looked up in the manifest)")
    .requiredOption("--contract <name>", "Points, Factory, CollateralVault, PSPVault or Oracle")
    .requiredOption("--implementation <name|address>", "new implementation: contract artifact name or deployed address")
    .option("--unsigned", "do not send: print the unsigned upgradeToAndCall (no key needed)")
    .option("--json", "print the result as JSON");
  withCommonOptions(cmd).action(async (o: CommonOptions & UpgradeFlags) => {
    const ctx = await context(o, !o.unsigned);
    const program = await programFromManifest(ctx, o.brand);
    const signerOrOpts = o.unsigned ? { provider: ctx.provider, unsigned: true } : ctx.signer!;
    const result = await withStep(
      `upgrade ${o.contract}`,
      () => upgrade(program, o.contract, o.implementation, signerOrOpts),
      scrub,
    );
    if (o.json) process.stdout.write(`${toJson(result)}\n`);
    else printSummary(o.unsigned ? "unsigned upgrade (sign and send as the admin)" : "upgraded", result);
  });
  return cmd;
}
