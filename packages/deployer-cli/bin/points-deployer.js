#!/usr/bin/env node
// A committed launcher, so the bin pnpm links on install exists before the first build.
import { existsSync } from "node:fs";

const main = new URL("../dist/main.js", import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('error [USAGE]: points-deployer is not built yet: pnpm --filter "@points/deployer-cli..." build\n');
  process.exit(2);
}
await import(main.href);
