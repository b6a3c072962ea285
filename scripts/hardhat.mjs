#!/usr/bin/env node
/**
 * `pnpm hardhat <task> [args]` at the repository root: runs the contracts package's Hardhat
 * (with the Node 22 that pnpm puts on that package's PATH), so `pnpm hardhat compile` and
 * `pnpm hardhat test` work from the root as they do in packages/contracts.
 *
 * Hardhat runs inside packages/contracts, so an argument naming a file or folder that exists
 * relative to where the command was typed (`packages/contracts/test/psp`) is passed as an
 * absolute path; arguments relative to packages/contracts (`test/psp`) work as well. Hardhat's
 * runners take files, not folders, so a folder becomes the test files in it (`*.test.ts` for
 * mocha, `*.t.sol` for the Solidity suites).
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const contracts = path.join(root, "packages", "contracts");
// pnpm runs root scripts in the root; INIT_CWD is where the user typed the command.
const cwd = process.env.INIT_CWD ?? process.cwd();

const TEST_FILE = /\.(test\.ts|t\.sol)$/;

/** Every test file under `dir`, sorted. */
function testFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map((name) => path.join(dir, String(name)))
    .filter((file) => TEST_FILE.test(file))
    .sort();
}

// Only arguments that look like paths: task names such as `test` are folders here too.
const looksLikePath = (arg) => !arg.startsWith("-") && (arg.includes("/") || /\.(ts|sol)$/.test(arg));

const args = process.argv.slice(2).flatMap((arg) => {
  if (!looksLikePath(arg)) return [arg];
  const inContracts = path.join(contracts, arg);
  const here = path.resolve(cwd, arg);
  const target = existsSync(inContracts) ? inContracts : existsSync(here) ? here : undefined;
  if (!target) return [arg];
  return statSync(target).isDirectory() ? testFiles(target) : [target];
});

const child = spawn("pnpm", ["--filter", "@points/contracts", "exec", "hardhat", ...args], {
  cwd: root,
  stdio: "inherit",
});
child.on("exit", (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exitCode = code ?? 1;
});
