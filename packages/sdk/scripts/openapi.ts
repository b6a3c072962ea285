/**
 * Writes dist/openapi.json: the API's OpenAPI document for the routes this build of the SDK
 * was made against (shipped as `@points/sdk/openapi.json`).
 */
import { writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { openApiDocument } from "@points/api";

const out = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/openapi.json");
writeFileSync(out, JSON.stringify(openApiDocument(), null, 2) + "\n");
