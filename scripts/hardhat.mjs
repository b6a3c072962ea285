#!/usr/bin/env node
/**
 * `pnpm hardhat <task> [args]` at the repository root: runs the contracts package's Hardhat
 * (with the Node 22 that pnpm puts on that package's PATH), so `pnpm hardhat compile` and
 * `pnpm hardhat test` work from the root as they do in packages/contracts.
 *
 * Hardhat runs inside packages/contracts, so an argument naming a file or folder that exists
 * relative to where the command was typed (`packages/contracts/test/psp`) is passed as an
 * absolute path; arguments relative to packages/contracts (`test/psp`) work as well.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const contracts = path.join(root, "packages", "contracts");
// pnpm runs root scripts in the root; INIT_CWD is where the user typed the command.
const cwd = process.env.INIT_CWD ?? process.cwd();

const args = process.argv.slice(2).map((arg) => {
  if (arg.startsWith("-")) return arg;
  const here = path.resolve(cwd, arg);
  return existsSync(here) && !existsSync(path.join(contracts, arg)) ? here : arg;
});

const child = spawn("pnpm", ["--filter", "@points/contracts", "exec", "hardhat", ...args], {
  cwd: root,
  stdio: "inherit",
});
child.on("exit", (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exitCode = code ?? 1;
});
