import { Command } from "commander";
import { PROGRAM_CONTRACTS, syncProgram, type ProgramContract } from "@points/deployer";
import { withCommonOptions, type CommonOptions } from "../connection.js";
import { CliError, scrub } from "../errors.js";
import { printSummary, toJson } from "../output.js";
import { withStep } from "../progress.js";
import { context, programFromManifest } from "./context.js";

interface SyncFlags {
  brand: string;
  artifact: string[];
  json?: boolean;
}

export function artifacts(pairs: string[]): Partial<Record<ProgramContract, string>> {
  const out: Partial<Record<ProgramContract, string>> = {};
  for (const pair of pairs) {
    const [contract, name] = pair.split("=");
    const key = PROGRAM_CONTRACTS.find((k) => k.toLowerCase() === contract?.toLowerCase());
    if (!key || !name) {
      throw new CliError(
        `--artifact ${pair}: expected <contract>=<ContractName>, contract one of ${PROGRAM_CONTRACTS.join(", ")}`,
      );
    }
    out[key] = name;
  }
  return out;
}

export function syncCommand(): Command {
  const cmd = new Command("sync")
    .summary("bring the manifest in line with upgrades and handovers executed outside the deployer")
    .description(
      "Reads every proxy's ERC-1967 implementation slot and every contract's admin and pending admin transfer, " +
        "and updates the manifest (after a multisig executed a proposed upgrade, for instance). An implementation " +
        "the manifest has no storage layout of is imported only when its code on chain equals a build of the " +
        "proposed or given artifact (--artifact); otherwise nothing is saved and the contract that differs is named " +
        "(exit 5). Needs no key; sends nothing.",
    )
    .requiredOption("--brand <name>", "the program's brand (looked up in the manifest)")
    .option(
      "--artifact <contract=Name>",
      "the contract an unknown implementation was built from, e.g. points=PointsV2 (repeatable)",
      (v: string, all: string[]) => [...all, v],
      [] as string[],
    )
    .option("--json", "print the changes as JSON");
  withCommonOptions(cmd, { signer: false }).action(async (o: CommonOptions & SyncFlags) => {
    const given = artifacts(o.artifact);
    const ctx = await context(o, false);
    const program = await programFromManifest(ctx, o.brand);
    const result = await withStep(
      `sync ${o.brand}`,
      () => syncProgram(program, ctx.provider, { artifacts: given, contractsDir: o.contractsDir, store: ctx.store }),
      scrub,
    );
    // Warnings go to stderr, one line each: the chain already runs what they describe.
    for (const w of result.warnings) process.stderr.write(`warning: ${w.replace(/\s*\n\s*/g, " ")}\n`);
    if (o.json) process.stdout.write(`${toJson({ changes: result.changes, warnings: result.warnings })}\n`);
    else if (result.changes.length === 0)
      printSummary(`program "${o.brand}": the manifest already follows the chain`, {});
    else
      process.stdout.write(
        `program "${o.brand}": manifest updated\n${result.changes.map((c) => `  ${c}`).join("\n")}\n`,
      );
  });
  return cmd;
}
