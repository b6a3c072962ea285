#!/usr/bin/env node
// A `solc` executable for Foundry (foundry.toml `solc`): the WASM compiler of the pinned `solc`
// npm package (the one Hardhat uses), behind the two calls forge makes:
//   solc --version
//   solc [--base-path DIR] [--allow-paths DIR,...] [--include-path DIR] --standard-json < input
// forge puts every source's content into the input, so the import callback below is only a
// fallback; like native solc it reads files only under the base, include and allowed paths.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

const solc = createRequire(import.meta.url)("solc");
const args = process.argv.slice(2);

if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  process.stdout.write(`solc, the solidity compiler commandline interface\nVersion: ${solc.version()}\n`);
  process.exit(0);
}

let base = process.cwd();
const allowed = [];
let standardJson = false;
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === "--standard-json") standardJson = true;
  else if (arg === "--base-path" && i + 1 < args.length) base = path.resolve(args[++i]);
  else if (arg === "--include-path" && i + 1 < args.length) allowed.push(path.resolve(args[++i]));
  else if (arg === "--allow-paths" && i + 1 < args.length) {
    for (const dir of args[++i].split(",")) if (dir) allowed.push(path.resolve(dir));
  } else {
    process.stderr.write(`solc (WASM wrapper): unsupported argument ${arg}; only --version and --standard-json\n`);
    process.exit(1);
  }
}
if (!standardJson) {
  process.stderr.write("solc (WASM wrapper): only --standard-json input is supported\n");
  process.exit(1);
}
allowed.push(base);

function findImport(importPath) {
  const file = path.resolve(base, importPath);
  if (!allowed.some((dir) => file === dir || file.startsWith(dir + path.sep))) {
    return { error: `${importPath} is outside the allowed paths` };
  }
  try {
    return { contents: readFileSync(file, "utf8") };
  } catch {
    return { error: `File not found: ${importPath}` };
  }
}

process.stdout.write(solc.compile(readFileSync(0, "utf8"), { import: findImport }));
