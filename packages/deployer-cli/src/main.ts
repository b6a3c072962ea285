#!/usr/bin/env node
/**
 * points-deployer: release, deploy, upgrade, handover, verify. One readable line and a non-zero
 * exit code on failure; stack traces only with --debug; the signer key is never printed.
 */
import { Command, CommanderError } from "commander";
import { deployCommand } from "./commands/deploy.js";
import { handoverCommand } from "./commands/handover.js";
import { releaseCommand } from "./commands/release.js";
import { upgradeCommand } from "./commands/upgrade.js";
import { syncCommand } from "./commands/sync.js";
import { importCommand } from "./commands/import.js";
import { validateCommand } from "./commands/validate.js";
import { verifyCommand } from "./commands/verify.js";
import { formatFailure, registerSecretsFrom, scrub } from "./errors.js";
import { setQuiet } from "./progress.js";
import { closeSigners } from "./signers.js";

export function cli(): Command {
  const program = new Command("points-deployer")
    .description(
      "Deploys loyalty-points programs: a chain's release (shared implementations + ProgramFactory), " +
        "whole programs in one transaction, upgrades and admin handovers. Every command has --help.",
    )
    .showHelpAfterError("(add --help for usage)")
    .addCommand(releaseCommand())
    .addCommand(deployCommand())
    .addCommand(upgradeCommand())
    .addCommand(validateCommand())
    .addCommand(syncCommand())
    .addCommand(importCommand())
    .addCommand(handoverCommand())
    .addCommand(verifyCommand());
  // Commander exits by itself on usage errors; throw instead so the exit code is ours.
  const override = (cmd: Command) => {
    cmd.exitOverride();
    cmd.commands.forEach(override);
  };
  override(program);
  return program;
}

/**
 * OpenZeppelin's upgrades-core prints a notice on stderr when the library silences its warnings
 * (the library checks every unsafe allowance itself); it would break the one-line contract.
 */
function dropUpgradesNotice(): void {
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].includes("All subsequent Upgrades warnings will be silenced")) return;
    original(...args);
  };
}

/**
 * The command words of `args` must name existing commands: Commander would otherwise answer
 * `handover bogus --help` with the parent's help and exit 0.
 */
export function unknownCommand(program: Command, args: string[]): string | undefined {
  let cmd = program;
  for (const arg of args) {
    if (arg.startsWith("-") || cmd.commands.length === 0) return undefined;
    const sub = cmd.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    if (!sub) {
      if (arg === "help") return undefined;
      const where = cmd === program ? "" : ` for '${cmd.name()}'`;
      return `error: unknown command '${arg}'${where} (valid: ${cmd.commands.map((c) => c.name()).join(", ")})`;
    }
    cmd = sub;
  }
  return undefined;
}

export async function main(argv = process.argv): Promise<number> {
  dropUpgradesNotice();
  registerSecretsFrom(argv, process.env);
  setQuiet(argv.includes("--json"));
  try {
    const program = cli();
    const unknown = unknownCommand(program, argv.slice(2));
    if (unknown) {
      process.stderr.write(`${unknown}\n`);
      return 2;
    }
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2; // already printed
    const { line, exitCode } = formatFailure(err);
    process.stderr.write(`${line}\n`);
    if (argv.includes("--debug")) process.stderr.write(`${scrub(String((err as Error)?.stack ?? err))}\n`);
    return exitCode;
  } finally {
    closeSigners();
  }
}

process.exitCode = await main();
