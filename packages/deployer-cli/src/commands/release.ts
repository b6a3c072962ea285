import { Command } from "commander";
import { ensureRelease } from "@points/deployer";
import { withCommonOptions, type CommonOptions } from "../connection.js";
import { scrub } from "../errors.js";
import { printSummary, toJson } from "../output.js";
import { withStages } from "../progress.js";
import { context } from "./context.js";

interface ReleaseFlags {
  operator?: string;
  admin?: string;
  releaseVersion?: string;
  json?: boolean;
}

export function releaseCommand(): Command {
  const cmd = new Command("release")
    .summary("deploy the chain's shared implementations and ProgramFactory (if missing)")
    .description(
      "Deploys the five implementation contracts and the ProgramFactory on a chain that lacks them " +
        "(each validated with OpenZeppelin's upgrades tooling first, all sent back to back) and records " +
        "the release in the manifest. An implementation an earlier release in the manifest already " +
        "deployed with the same code is reused, not deployed again. Does nothing but report when the " +
        "chain already has the release.",
    )
    .option("--operator <address>", "executor allowed to deploy programs (default: the signer)")
    .option("--admin <address>", "admin of the ProgramFactory, manages operators (default: the signer)")
    .option("--release-version <label>", "release label (default: the contracts package version)")
    .option("--json", "print the release as JSON");
  withCommonOptions(cmd).action(async (o: CommonOptions & ReleaseFlags) => {
    const ctx = await context(o, true);
    const opts = { operator: o.operator, admin: o.admin, version: o.releaseVersion, contractsDir: o.contractsDir };
    const release = await withStages(
      ["release"],
      ctx.store,
      (store) => ensureRelease({ chainId: ctx.chainId, dev: ctx.dev }, ctx.signer!, store, opts),
      { unreported: "skipped", redact: scrub },
    );
    if (o.json) process.stdout.write(`${toJson(release)}\n`);
    else {
      printSummary(`release ${release.version} on chain ${ctx.chainId}`, {
        programFactory: release.programFactory,
        ...Object.fromEntries(
          Object.entries(release.implementations).map(([k, address]) => {
            const from = release.contracts[k as keyof typeof release.implementations].reusedFrom;
            return [k, from ? `${address} (reused from ${from})` : address];
          }),
        ),
        deployer: release.deployer,
      });
    }
  });
  return cmd;
}
