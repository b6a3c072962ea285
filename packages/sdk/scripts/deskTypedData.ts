/**
 * Writes src/generated/deskTypedData.ts (git-ignored, written before every build): a copy of
 * `@points/contracts/program`'s deskTypedData.ts, the typed data a desk manager signs, which is
 * defined there once. Copied, not imported, so the published SDK depends on no `@points/*`
 * package (docs/deployment.md#publishing-the-sdk); the file has no imports, so it runs as is.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const contracts = dirname(fileURLToPath(import.meta.resolve("@points/contracts/package.json")));
const source = readFileSync(resolve(contracts, "program/deskTypedData.ts"), "utf8");
if (/^\s*(import|export\s.*\sfrom)\s/m.test(source)) {
  throw new Error("program/deskTypedData.ts imports something: the SDK copies it and must not depend on it");
}
const out = resolve(dirname(fileURLToPath(import.meta.url)), "../src/generated/deskTypedData.ts");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `// Copied by scripts/deskTypedData.ts from @points/contracts/program: do not edit.\n\n${source}`);
