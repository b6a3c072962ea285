import { Command } from "commander";
import { PROGRAM_STAGES } from "@points/contracts/program";
import { deployProgram } from "@points/deployer";
import { deployConfig, type DeployFlags } from "../deployFlags.js";
import { withCommonOptions, type CommonOptions } from "../connection.js";
import { scrub } from "../errors.js";
import { printSummary, toJson } from "../output.js";
import { withStages } from "../progress.js";
import { context, manifestFile } from "./context.js";

export function deployCommand(): Command {
  const cmd = new Command("deploy")
    .summary("deploy a program (one transaction) for a brand")
    .description(
      "Deploys a whole program (Points, Factory, CollateralVault, PSPVault, optional Oracle) in ONE " +
        "transaction of the chain's ProgramFactory, deploying the release first if the chain lacks it. " +
        "Stages: validate, release, deploy, verify, register; each is recorded in the manifest, so a " +
        "run interrupted at any point can simply be run again. The signer is the executor (operator); " +
        "--deployer (the brand's wallet) receives every admin role.",
    )
    .option("--config <file>", "JSON file with the fields below (camelCase); flags override it")
    .option("--brand <name>", "lowercase alphanumeric, 1-32 characters, once per chain")
    .option("--token-name <name>", "points token name")
    .option("--token-symbol <symbol>", "points token symbol")
    .option("--deployer <address>", "the brand's wallet: admin of every contract")
    .option("--collateral <address|mock>", 'ERC-20 collateral, or "mock" (dev chains: a new 6-decimal stablecoin)')
    .option("--oracle-feed <address>", "Chainlink-style feed of the collateral (adds an Oracle)")
    .option("--oracle-heartbeat <seconds>", "oracle staleness limit (default 86400)")
    .option("--lower-peg <price>", "lower bound of the peg band (default 0.98)")
    .option("--upper-peg <price>", "upper bound of the peg band (default 1.02)")
    .option("--fee-receiver <address>", "receiver of mint/redeem fees (default: --deployer)")
    .option("--mint-fee-bps <n>", "mint fee in basis points")
    .option("--redeem-fee-bps <n>", "redeem fee in basis points")
    .option("--redeem-delay <seconds>", "delay between redeem request and finalization")
    .option("--admin-delay <seconds>", "delay of the two-step admin transfer")
    .option("--json", "print the program record as JSON");
  withCommonOptions(cmd).action(async (o: CommonOptions & DeployFlags & { json?: boolean }) => {
    const config = deployConfig(o); // flags and file checked before any network traffic
    const ctx = await context(o, true);
    const chain = { chainId: ctx.chainId, dev: ctx.dev };
    const program = await withStages(
      [...PROGRAM_STAGES],
      ctx.store,
      (store) => deployProgram(config, ctx.signer!, store, { chain, contractsDir: o.contractsDir }),
      {
        redact: scrub,
      },
    );
    if (o.json) process.stdout.write(`${toJson(program)}\n`);
    else {
      printSummary(`program "${program.brand}" on chain ${ctx.chainId}`, {
        ...program.addresses,
        collateral: program.collateralAsset,
        admin: program.admin,
        executor: program.executor,
        release: `${program.version} (ProgramFactory ${program.programFactory})`,
        transaction: `${program.txHash} (block ${program.blockNumber})`,
        manifest: manifestFile(ctx.opts.manifestDir, ctx.chainId, program.brand),
      });
    }
  });
  return cmd;
}
