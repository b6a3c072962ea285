/**
 * The real API (@points/api's build) on a free port against the test's node, for the CLI's
 * --propose. Imported by path, not as a dependency: the API depends on the deployer, and a
 * dependency back would make the workspace graph cyclic (turbo.json orders @points/api#build
 * before this package's tests instead).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { startApi, type ApiEntry, type ApiService, type TestApi } from "@points/testkit";

const API_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../api/dist/index.js");

/** The part of the API's service the test uses: its API keys. */
interface Service extends ApiService {
  ctx: { keys: { create(name: string, scopes?: readonly string[]): Promise<{ key: string }> } };
}

export async function startLiveApi(nodeUrl: string): Promise<TestApi<Service>> {
  if (!existsSync(API_DIST)) throw new Error(`${API_DIST} is missing: run \`pnpm --filter @points/api build\` first`);
  const entry = (await import(pathToFileURL(API_DIST).href)) as ApiEntry<unknown, Service>;
  return startApi(entry, nodeUrl, { LEDGER: "off" });
}
