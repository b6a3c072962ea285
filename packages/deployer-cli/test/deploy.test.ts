/**
 * The built CLI against a real `hardhat node` (child process on a free port): a successful
 * deployment writes the manifest; each failure exits non-zero with one readable line.
 * Order matters: the funds test needs a chain without a release, so it runs first.
 */
import assert from "node:assert/strict";
import { cpSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { JsonRpcProvider, Wallet } from "ethers";
import { type DevNode, startNode } from "@points/testkit";
import { ACCOUNTS, deployArgs, errorLine, requireBuilt, runCli, tempDir, type Run } from "./helpers.js";

/** Every file under `dir`, recursively. */
function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = path.join(dir, f);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

function assertNoSecret(r: Run, key: string) {
  const bare = key.replace(/^0x/, "");
  assert.ok(!r.stdout.includes(bare) && !r.stderr.includes(bare), "the private key was printed");
}

describe("points-deployer deploy (against hardhat node)", function () {
  this.timeout(240_000);
  let node: DevNode;
  let env: Record<string, string>;
  let manifests: string;

  before(async () => {
    requireBuilt();
    node = await startNode();
    env = { RPC_URL: node.url, DEPLOYER_PRIVATE_KEY: ACCOUNTS.executor.key };
    manifests = tempDir("manifests");
  });
  after(async () => node?.stop());

  it("deploy_failsWithInsufficientFunds_whenSignerHasNoEth", async () => {
    const broke = Wallet.createRandom().privateKey;
    const r = await runCli(deployArgs("poor", tempDir("poor")), { ...env, DEPLOYER_PRIVATE_KEY: broke });
    assert.equal(r.code, 4);
    assert.match(errorLine(r), /^error \[INSUFFICIENT_FUNDS\]: insufficient funds/);
    assertNoSecret(r, broke);
  });

  it("deploy_succeeds_printsAddresses_andWritesManifest", async () => {
    const r = await runCli(deployArgs("demo", manifests), env);
    assert.equal(r.code, 0, r.stderr);
    for (const stage of ["validate", "release", "deploy", "verify", "register"]) {
      assert.match(r.stdout, new RegExp(`^\\[${stage}\\] started$`, "m"));
    }
    assert.match(r.stdout, /^\[deploy\] tx 0x[0-9a-f]{8}/m);
    const points = /points: (0x[0-9a-fA-F]{40})/.exec(r.stdout)?.[1];
    assert.ok(points, `no points address in:\n${r.stdout}`);
    const provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: true });
    assert.notEqual(await provider.getCode(points), "0x");
    provider.destroy();
    const written = files(manifests).map((f) => readFileSync(f, "utf8"));
    assert.ok(
      written.some((t) => t.includes('"demo"') && t.toLowerCase().includes(points.toLowerCase())),
      "no manifest names brand demo and its Points address",
    );
    assertNoSecret(r, ACCOUNTS.executor.key);
  });

  it("verify_succeeds_forTheDeployedProgram", async () => {
    const r = await runCli(["verify", "--brand", "demo", "--manifest-dir", manifests], { RPC_URL: node.url });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /program "demo" matches the chain/);
  });

  it("release_isNoOp_whenChainHasRelease", async () => {
    const r = await runCli(["release", "--manifest-dir", manifests], env);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /\[release\] tx /);
  });

  it("deploy_runAgainWithSameManifest_resumes_andSendsNothing", async () => {
    const r = await runCli(deployArgs("demo", manifests), env);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stdout, /\] tx 0x/);
  });

  it("deploy_failsWithBrandTaken_whenBrandBelongsToAnotherWallet", async () => {
    // Same executor, another brand wallet: not a resume of our run, so the brand is taken.
    const args = deployArgs("demo", tempDir("other")).map((a) =>
      a === ACCOUNTS.brand.address ? ACCOUNTS.other.address : a,
    );
    const r = await runCli(args, env);
    assert.equal(r.code, 5);
    assert.match(errorLine(r), /^error \[BRAND_TAKEN\]: .*demo/);
  });

  it("deploy_failsWithInvalidConfig_whenBrandHasCapitalsOrSymbols", async () => {
    const r = await runCli(deployArgs("Acme!", manifests), env);
    assert.equal(r.code, 2);
    assert.match(errorLine(r), /^error \[INVALID_CONFIG\]: .*brand/i);
  });

  it("deploy_failsWithWrongKey_whenKeyIsMalformed_andNeverPrintsIt", async () => {
    const bad = `${ACCOUNTS.executor.key.slice(0, 60)}zz`;
    const r = await runCli(deployArgs("acme", manifests, ["--private-key", bad]), { RPC_URL: node.url });
    assert.equal(r.code, 4);
    assert.match(errorLine(r), /^error \[WRONG_KEY\]: the signer key is not a 32-byte hex private key$/);
    assertNoSecret(r, bad.slice(0, 60));
  });

  it("deploy_failsWithWrongKey_whenSignerIsNotTheOperator", async () => {
    const r = await runCli(deployArgs("acme", manifests), { ...env, DEPLOYER_PRIVATE_KEY: ACCOUNTS.other.key });
    assert.equal(r.code, 4);
    assert.match(errorLine(r), /^error \[WRONG_KEY\]: /);
    assertNoSecret(r, ACCOUNTS.other.key);
  });

  it("deploy_failsWithChainUnavailable_whenRpcUnreachable", async () => {
    const r = await runCli(deployArgs("acme", manifests, ["--rpc-url", "http://127.0.0.1:9"]), {
      DEPLOYER_PRIVATE_KEY: ACCOUNTS.executor.key,
    });
    assert.equal(r.code, 3);
    assert.match(errorLine(r), /^error \[CHAIN_UNAVAILABLE\]: cannot reach the chain at http:\/\/127\.0\.0\.1:9/);
  });

  it("deploy_failsWithoutKey_beforeAnyNetworkTraffic", async () => {
    const r = await runCli(deployArgs("acme", manifests, ["--rpc-url", "http://127.0.0.1:9"]));
    assert.equal(r.code, 4);
    assert.match(errorLine(r), /no signer key: pass --private-key or set DEPLOYER_PRIVATE_KEY/);
  });

  it("deploy_failsNamingTheFlag_whenRequiredFieldMissing", async () => {
    const r = await runCli(["deploy", "--brand", "acme", "--manifest-dir", manifests], env);
    assert.equal(r.code, 2);
    assert.match(errorLine(r), /missing --token-name/);
  });

  it("deploy_printsStackTrace_onlyWithDebug", async () => {
    const r = await runCli(
      deployArgs("demo", tempDir("debug"), ["--deployer", ACCOUNTS.other.address, "--debug"]),
      env,
    );
    assert.equal(r.code, 5);
    assert.match(r.stderr, /^error \[BRAND_TAKEN\]/m);
    assert.match(r.stderr, /\n\s+at /);
    assertNoSecret(r, ACCOUNTS.executor.key);
  });

  it("release_aVersionBumpWithTheSameCode_reusesEveryImplementation_sendsOnlyTheProgramFactory", async () => {
    // A copy of the manifests, so the tests above keep their single release.
    const copy = tempDir("bump");
    cpSync(manifests, copy, { recursive: true });
    const r = await runCli(["release", "--manifest-dir", copy, "--release-version", "9.9.9"], env);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.match(/\[release\] tx /g)?.length, 1, r.stdout);
    assert.match(r.stdout, /deploy ProgramFactory/);
    const reused = r.stdout.match(/\(reused from release [^)]+\)/g) ?? [];
    assert.equal(reused.length, 5, r.stdout);
  });
});
