/** A temporary copy of the contracts package, edited and rebuilt: what a developer's working tree becomes. */
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { contractsDir } from "@points/testkit";

export interface ContractsCopy {
  dir: string;
  edit(file: string, change: (source: string) => string): void;
  add(file: string, source: string): void;
  build(): Promise<void>;
}

/** Copies the sources and config (not the build) and links the package's node_modules. */
export function copyContracts(): ContractsCopy {
  const real = contractsDir();
  const dir = mkdtempSync(path.join(tmpdir(), "points-contracts-"));
  for (const entry of ["contracts", "plugins", "hardhat.config.ts", "package.json", "tsconfig.json"]) {
    cpSync(path.join(real, entry), path.join(dir, entry), { recursive: true });
  }
  symlinkSync(path.join(real, "node_modules"), path.join(dir, "node_modules"), "dir");
  return {
    dir,
    edit: (file, change) => {
      const p = path.join(dir, file);
      const before = readFileSync(p, "utf8");
      const after = change(before);
      if (after === before) throw new Error(`edit of ${file} changed nothing`);
      writeFileSync(p, after);
    },
    add: (file, source) => writeFileSync(path.join(dir, file), source),
    build: () =>
      new Promise((resolve, reject) => {
        // The package's own hardhat shim runs on its Node 22.
        execFile(
          path.join(real, "node_modules", ".bin", "hardhat"),
          ["build"],
          { cwd: dir, env: { ...process.env, CI: "true", HARDHAT_DISABLE_TELEMETRY: "true" }, timeout: 600_000 },
          (err, stdout, stderr) => (err ? reject(new Error(`hardhat build failed:\n${stdout}\n${stderr}`)) : resolve()),
        );
      }),
  };
}
