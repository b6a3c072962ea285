/** Runs the BUILT points-deployer binary as a child process, against a Hardhat node child process. */
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { DEV_KEYS, devWallet } from "@points/testkit";

export const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../dist/main.js");

const account = (i: number) => ({ address: devWallet(i).address, key: DEV_KEYS[i] });

/** Hardhat's well-known dev accounts (public test keys, funded only on local nodes). */
export const ACCOUNTS = { executor: account(0), brand: account(1), other: account(2) };

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export function requireBuilt(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run \`pnpm build\` in packages/deployer-cli first`);
}

export function tempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `points-${prefix}-`));
}

/** Runs the binary with `args` and ONLY the given env on top of PATH/HOME (no inherited key or RPC). */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const base = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", CI: "true" };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...base, ...env }, timeout: 120_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The single error line the CLI prints on failure (asserts there is exactly one, and no stack trace). */
export function errorLine(run: Run): string {
  const lines = run.stderr.trim().split("\n");
  if (lines.length !== 1 || !lines[0].startsWith("error") || /^\s+at /m.test(run.stderr)) {
    throw new Error(`expected one error line on stderr and no stack trace, got:\n${run.stderr}`);
  }
  return lines[0];
}

export function deployArgs(brand: string, manifestDir: string, extra: string[] = []): string[] {
  return [
    "deploy",
    "--brand",
    brand,
    "--token-name",
    "Demo Points",
    "--token-symbol",
    "DEMO",
    "--deployer",
    ACCOUNTS.brand.address,
    "--collateral",
    "mock",
    "--manifest-dir",
    manifestDir,
    ...extra,
  ];
}

/** The environment of a CLI run against `rpcUrl`, signing with `key` when given. */
export function cliEnv(rpcUrl: string, key?: string): Record<string, string> {
  return { RPC_URL: rpcUrl, ...(key ? { DEPLOYER_PRIVATE_KEY: key } : {}) };
}

/** `<command> --brand <brand> --contract <contract> --implementation <impl> --manifest-dir <dir> ...extra`. */
export function upgradeArgs(
  brand: string,
  impl: string,
  manifestDir: string,
  { command = "upgrade", contract = "points", extra = [] as string[] } = {},
): string[] {
  return [
    command,
    "--brand",
    brand,
    "--contract",
    contract,
    "--implementation",
    impl,
    "--manifest-dir",
    manifestDir,
    ...extra,
  ];
}
