import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { contractsDir } from "@points/testkit";

/**
 * A copy of the built contracts in which `contract` (its path under contracts/, without `.sol`) has
 * other runtime code: one byte near the end flipped (what a changed contract looks like to the
 * deployer, with the same ABI and storage layout). Pass the folder as `contractsDir`.
 */
export function changedBuild(contract: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), "points-changed-"));
  cpSync(path.join(contractsDir(), "package.json"), path.join(dir, "package.json"));
  cpSync(path.join(contractsDir(), "artifacts"), path.join(dir, "artifacts"), { recursive: true });
  const file = path.join(dir, `artifacts/contracts/${contract}.sol/${path.basename(contract)}.json`);
  const a = JSON.parse(readFileSync(file, "utf8"));
  const flip = (code: string) => code.slice(0, -10) + (code.at(-10) === "0" ? "1" : "0") + code.slice(-9);
  a.deployedBytecode = flip(a.deployedBytecode);
  a.bytecode = flip(a.bytecode);
  writeFileSync(file, JSON.stringify(a));
  return dir;
}
