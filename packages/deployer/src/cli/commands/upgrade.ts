import { Command } from "commander";
import { upgrade } from "../../index.js";
import { withCommonOptions, type CommonOptions } from "../connection.js";
import { scrub } from "../errors.js";
import { printSummary, toJson } from "../output.js";
import { withStages } from "../progress.js";
import { context, programFromManifest } from "./context.js";

interface UpgradeFlags {
  brand: string;
  contract: string;
  implementation: string;
  at?: string;
  call?: string;
  unsigned?: boolean;
  json?: boolean;
}

export function upgradeCommand(): Command {
  const cmd = new Command("upgrade")
    .summary("upgrade one contract of a program (storage layout checked first)")
    .description(
      "Validates the new implementation's storage layout and upgrade safety with OpenZeppelin's " +
        "upgrades tooling BEFORE anything is sent; an unsafe upgrade is refused naming the problem. " +
        "Then deploys the implementation (unless --at) and sends upgradeToAndCall with the program " +
        "admin's key, or with --unsigned prints the transaction for the admin (e.g. a multisig) to sign.",
    )
    .requiredOption("--brand <name>", "the program's brand (looked up in the manifest)")
    .requiredOption("--contract <name>", "points, factory, collateralVault, pspVault or oracle")
    .requiredOption("--implementation <artifact>", "contract name of the new implementation in @points/contracts")
    .option("--at <address>", "the new implementation is already deployed at this address")
    .option("--call <calldata>", "calldata for upgradeToAndCall (default none)")
    .option("--unsigned", "never send the upgrade: print the unsigned upgradeToAndCall")
    .option("--json", "print the result as JSON");
  withCommonOptions(cmd).action(async (o: CommonOptions & UpgradeFlags) => {
    // Without a key, --unsigned only reads (and needs --at); with one it may deploy the implementation.
    const ctx = await context(o, !(o.unsigned && o.at && !o.privateKey));
    const program = await programFromManifest(ctx, o.brand);
    const result = await withStages(
      ["upgrade"],
      ctx.store,
      (store) =>
        upgrade(program, o.contract, o.implementation, {
          signer: ctx.signer,
          provider: ctx.provider,
          send: !o.unsigned, // without --unsigned a non-admin key is an error, not a silent proposal
          implementation: o.at,
          call: o.call,
          store,
        }),
      { unreported: "done", redact: scrub },
    );
    const { program: _record, ...shown } = result;
    if (o.json) process.stdout.write(`${toJson(shown)}\n`);
    else
      printSummary(result.tx ? `${result.contract} upgraded` : "unsigned upgrade (sign and send as the admin)", shown);
  });
  return cmd;
}
