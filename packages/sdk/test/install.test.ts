import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startLive, type Live } from "./helpers/live.js";

const sdkDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const schemaDir = resolve(sdkDir, "../schema");

/** What a backend team writes: read, build, sign and send, read back. Type-checked under nodenext. */
const CONSUMER = `
import { JsonRpcProvider, Wallet } from "ethers";
import { createClient, PointsApiError, type PreparedTx } from "@points/sdk";

const points = createClient({ baseUrl: process.env.POINTS_API_URL!, apiKey: process.env.POINTS_API_KEY });
const brand = new Wallet(process.env.BRAND_PRIVATE_KEY!, new JsonRpcProvider(process.env.RPC_URL));
const customer = process.env.CUSTOMER_ADDRESS!;

const tx: PreparedTx = await points.factory.addToMintWhitelist(customer, { from: brand.address });
const receipt = await tx.send(brand);
const status = await points.factory.whitelistStatus(customer);
try {
  await points.read.balance("not-an-address");
} catch (e) {
  if (!(e instanceof PointsApiError) || e.code !== "INVALID_INPUT") throw e;
}
console.log(JSON.stringify({ status: receipt.status, mint: status.mint }));
`;

const run = (cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env) =>
  execFileSync(cmd, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

// The published packages, packed and installed with npm into a project outside the workspace.
describe("the packed SDK installs into a clean npm project and runs against a local stack", () => {
  let live: Live;
  let project: string;
  before(async () => {
    project = mkdtempSync(join(tmpdir(), "points-consumer-"));
    for (const dir of [schemaDir, sdkDir]) run("pnpm", ["pack", "--pack-destination", project], dir);
    live = await startLive();
  });
  after(async () => {
    await live?.stop();
    if (project && !process.env.KEEP_CONSUMER) rmSync(project, { recursive: true, force: true });
  });

  it("packsOnlyDistReadmeChangelogAndLicense_withoutPrivateOrWorkspaceDependencies", () => {
    const tarballs = readdirSync(project).filter((f) => f.endsWith(".tgz"));
    assert.deepEqual(tarballs.sort(), ["points-schema-0.1.0.tgz", "points-sdk-0.1.0.tgz"]);
    const files = run("tar", ["-tzf", join(project, "points-sdk-0.1.0.tgz")], project)
      .split("\n")
      .filter(Boolean);
    const top = [...new Set(files.map((f) => f.split("/")[1]))].sort();
    assert.deepEqual(top, ["CHANGELOG.md", "LICENSE", "README.md", "dist", "package.json"]);
    assert.ok(files.includes("package/dist/openapi.json"));
    const pkg = JSON.parse(
      run("tar", ["-xzOf", join(project, "points-sdk-0.1.0.tgz"), "package/package.json"], project),
    );
    assert.equal(pkg.private, undefined);
    assert.deepEqual(pkg.dependencies, { "@points/schema": "0.1.0" });
    assert.deepEqual(pkg.peerDependencies, { ethers: "^6" });
    assert.deepEqual(pkg.engines, { node: ">=20.19" });
  });

  it("npmInstall_typeCheckUnderNodenext_andRunAgainstTheApi", async () => {
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({
        name: "consumer",
        private: true,
        type: "module",
        dependencies: {
          "@points/schema": "file:./points-schema-0.1.0.tgz",
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
    assert.deepEqual(JSON.parse(out.trim()), { status: 1, mint: true });
  });
});
