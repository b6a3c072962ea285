import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startLive, type Live } from "./helpers/live.js";
import { packSdk } from "../scripts/pack.js";

/** What a backend team writes: read, build, sign and send, read back. Type-checked under nodenext. */
const CONSUMER = `
import { JsonRpcProvider, Wallet } from "ethers";
import { createRequire } from "node:module";
import { createClient, isPointsError, type PreparedTx } from "@points/sdk";
import { viemSigner } from "@points/sdk/viem"; // for viem users; loads no viem itself
import { createClient as readClient } from "@points/sdk/client"; // the client alone, for a page that reads

const points = createClient({ baseUrl: process.env.POINTS_API_URL!, apiKey: process.env.POINTS_API_KEY });
const brand = new Wallet(process.env.BRAND_PRIVATE_KEY!, new JsonRpcProvider(process.env.RPC_URL));
const customer = process.env.CUSTOMER_ADDRESS!;

const tx: PreparedTx = await points.factory.addToMintWhitelist(customer, { from: brand.address });
const receipt = await tx.send(brand);
const status = await points.factory.whitelistStatus(customer);
const address: \`0x\${string}\` = status.address; // results type addresses as 0x strings
let field: string | undefined;
try {
  await points.read.balance("not-an-address");
} catch (e) {
  if (!isPointsError(e, "INVALID_INPUT")) throw e;
  field = e.details?.issues?.[0]?.field; // details typed per code
}
// The OpenAPI document the SDK was built against ships with it.
const openapi = createRequire(import.meta.url)("@points/sdk/openapi.json") as { paths: Record<string, unknown> };
const documented = "/studio/sdk/v1/tx/whitelist/mint/add" in openapi.paths;
const viem = typeof viemSigner;
const read = await readClient({ baseUrl: process.env.POINTS_API_URL!, apiKey: process.env.POINTS_API_KEY }).factory.whitelistStatus(customer);
// CommonJS code requires the entries (Node's require of ES modules).
const required = createRequire(import.meta.url);
const cjs = [required("@points/sdk").createClient, required("@points/sdk/client").createClient].map((f) => typeof f);
console.log(JSON.stringify({ status: receipt.status, mint: status.mint, address, field, documented, viem, read: read.mint, cjs }));
`;

const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

// The published packages, packed and installed with npm into a project outside the workspace.
describe("the packed SDK installs into a clean npm project and runs against a local stack", () => {
  let live: Live;
  let project: string;
  before(async () => {
    project = mkdtempSync(join(tmpdir(), "points-consumer-"));
    packSdk(project);
    live = await startLive();
  });
  after(async () => {
    await live?.stop();
    if (project && !process.env.KEEP_CONSUMER) rmSync(project, { recursive: true, force: true });
  });

  it("npmInstall_typeCheckUnderNodenext_andRunAgainstTheApi", async () => {
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({
        name: "consumer",
        private: true,
        type: "module",
        dependencies: {
          "@points/sdk": "file:./points-sdk-0.1.0.tgz",
          ethers: "6.17.0",
          typescript: "5.9.3",
          "@types/node": "22.20.5",
        },
      }),
    );
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "es2022",
          module: "nodenext",
          moduleResolution: "nodenext",
          strict: true,
          outDir: "out",
          types: ["node"],
        },
        include: ["consumer.ts"],
      }),
    );
    writeFileSync(join(project, "consumer.ts"), CONSUMER);
    run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], project);
    run(process.execPath, [join(project, "node_modules/typescript/bin/tsc"), "-p", "."], project);
    // Not synchronous: the API under test serves from this process.
    const { stdout: out } = await promisify(execFile)(process.execPath, [join(project, "out/consumer.js")], {
      cwd: project,
      env: {
        ...process.env,
        POINTS_API_URL: live.api.url,
        POINTS_API_KEY: live.apiKey,
        RPC_URL: live.node.url,
        BRAND_PRIVATE_KEY: live.actors.brand.privateKey,
        CUSTOMER_ADDRESS: live.actors.carol.address,
      },
    });
    assert.deepEqual(JSON.parse(out.trim()), {
      status: 1,
      mint: true,
      address: live.actors.carol.address,
      field: "params.address",
      documented: true,
      viem: "function",
      read: true,
      cjs: ["function", "function"],
    });
  });
});
