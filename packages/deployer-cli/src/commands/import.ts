import { Command } from "commander";
import { importProgram } from "@points/deployer";
import { withCommonOptions, type CommonOptions } from "../connection.js";
import { CliError, scrub } from "../errors.js";
import { printSummary, toJson } from "../output.js";
import { withStep } from "../progress.js";
import { artifacts } from "./sync.js";
import { context } from "./context.js";

interface ImportFlags {
  brand: string;
  chain?: string;
  programFactory?: string;
  artifact: string[];
  json?: boolean;
}

export function importCommand(): Command {
  const cmd = new Command("import")
    .summary("rebuild a program's lost manifest from chain state")
    .description(
      "Finds the brand's program on the ProgramFactories this manifest folder knows (every recorded release, " +
        "plus --program-factory), reads its birth transaction (config, roles, allowlist), the release's " +
        "implementations and storage layouts (only for code that is exactly a build on disk), then follows the " +
        "upgrades and handovers executed since, as sync does. Never overwrites the manifest of another program " +
        "(exit 6); a brand no known factory has exits 5. Needs no key; sends nothing.",
    )
    .requiredOption("--brand <name>", "the program's brand")
    .option("--chain <id>", "the chain id the RPC must serve (a guard against importing from the wrong chain)")
    .option("--program-factory <address>", "a ProgramFactory to search besides the recorded releases")
    .option(
      "--artifact <contract=Name>",
      "the contract an implementation the program was upgraded to was built from (repeatable)",
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option("--json", "print the imported record's brand, Points address and changes as JSON");
  withCommonOptions(cmd, { signer: false }).action(async (o: CommonOptions & ImportFlags) => {
    const given = artifacts(o.artifact);
    const ctx = await context(o, false);
    if (o.chain !== undefined && String(ctx.chainId) !== o.chain) {
      throw new CliError(`--chain ${o.chain}: the RPC at ${ctx.url} serves chain ${ctx.chainId}`);
    }
    const result = await withStep(
      `import ${o.brand}`,
      () =>
        importProgram(o.brand, ctx.provider, ctx.store, {
          contractsDir: o.contractsDir,
          programFactory: o.programFactory,
          artifacts: given,
        }),
      scrub,
    );
    for (const w of result.warnings) process.stderr.write(`warning: ${w.replace(/\s*\n\s*/g, " ")}\n`);
    const points = result.program.addresses.points;
    if (o.json)
      process.stdout.write(
        `${toJson({ written: result.written, points, changes: result.changes, warnings: result.warnings })}\n`,
      );
    else if (!result.written)
      printSummary(`program "${o.brand}": the manifest already records this program; nothing written`, {});
    else
      printSummary(`program "${o.brand}": manifest imported from chain ${ctx.chainId}`, {
        points,
        programFactory: result.program.programFactory,
        admin: result.program.admin,
        ...(result.changes.length > 0 ? { "since birth": result.changes.join("; ") } : {}),
      });
  });
  return cmd;
}
