/**
 * Writes src/routeTable.ts: each route's method, path and whether it builds a transaction,
 * taken from the schema's route table, so the SDK's runtime needs neither zod nor the
 * schemas. `pnpm --filter @points/sdk routes` after changing a route; a test fails while the
 * file is stale.
 */
import { writeFileSync } from "node:fs";
import { format, resolveConfig } from "prettier";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { routeTableSource } from "./routeTableSource.js";

const out = resolve(dirname(fileURLToPath(import.meta.url)), "../src/routeTable.ts");
writeFileSync(out, await format(routeTableSource(), { ...(await resolveConfig(out)), filepath: out }));
console.log(`wrote ${out}`);
