import { Command } from "commander";
import { ensureRelease } from "../../index.js";
import { withCommonOptions, type CommonOptions } from "../connection.js";
import { scrub } from "../errors.js";
import { printSummary, toJson } from "../output.js";
import { withStages } from "../progress.js";
import { context } from "./context.js";

export function releaseCommand(): Command {
  const cmd = new Command("release")
    .summary("deploy the chain's shared implementations and ProgramFactory (if missing)")
    .description(
      "Deploys the five implementation contracts and the ProgramFactory on a chain that lacks them " +
        "(validated with OpenZeppelin's upgrades tooling first) and records the release in the manifest. " +
        "Does nothing but report when the chain already has the release. The signer becomes the " +
        "ProgramFactory's admin and operator.",
    )
    .option("--json", "print the release as JSON");
  withCommonOptions(cmd).action(async (o: CommonOptions & { json?: boolean }) => {
    const ctx = await context(o, true);
    const release = await withStages(
      ["release"],
      ctx.store,
      (store) => ensureRelease({ chainId: ctx.chainId, dev: ctx.dev }, ctx.signer!, store),
      { unreported: "done", redact: scrub },
    );
    if (o.json) process.stdout.write(`${toJson(release)}\n`);
    else printSummary(`release on chain ${ctx.chainId}`, release);
  });
  return cmd;
}
