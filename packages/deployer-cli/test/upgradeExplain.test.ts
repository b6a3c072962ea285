/**
 * What `upgrade` and `validate` say: a refusal shows the layouts side by side within 100 columns
 * (`validate --json` prints the refusal and its rows on stdout), an upgrade to the code already
 * running sends nothing and says so, and a second program reuses the implementation the first
 * one deployed.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { JsonRpcProvider } from "ethers";
import { startNode, type DevNode } from "@points/testkit";
import { ACCOUNTS, cliEnv, deployArgs, errorLine, requireBuilt, runCli, tempDir, upgradeArgs } from "./helpers.js";

interface Row {
  namespace: string;
  old?: string;
  next?: string;
  change: string;
  safe: boolean;
  reason: string;
}

describe("points-deployer upgrade and validate explain themselves (hardhat node)", function () {
  this.timeout(600_000);
  let node: DevNode;
  let provider: JsonRpcProvider;
  let manifests: string;
  const as = (key?: string) => cliEnv(node.url, key);
  const manifest = (brand: string) => readFileSync(path.join(manifests, "31337", `${brand}.json`));
  const nonces = () =>
    Promise.all(
      [ACCOUNTS.executor, ACCOUNTS.brand, ACCOUNTS.other].map((a) => provider.getTransactionCount(a.address)),
    );
  const args = (command: string, brand: string, impl: string, extra: string[] = []) =>
    upgradeArgs(brand, impl, manifests, { command, extra });

  before(async () => {
    requireBuilt();
    node = await startNode();
    provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: true, cacheTimeout: -1 });
    manifests = tempDir("explain");
    for (const brand of ["acme", "beta"]) {
      const r = await runCli(deployArgs(brand, manifests), as(ACCOUNTS.executor.key));
      assert.equal(r.code, 0, r.stderr);
    }
  });
  after(async () => {
    provider?.destroy();
    await node?.stop();
  });

  it("aRefusedUpgrade_printsItsTable_everyLineAtMost100Columns_thenOneErrorLine", async () => {
    const before = await nonces();
    const r = await runCli(args("upgrade", "acme", "PointsV2UnsafeMock"), as(ACCOUNTS.brand.key));
    assert.equal(r.code, 5, r.stderr);
    assert.match(errorLine(r), /^error \[UNSAFE_UPGRADE\]: .*Replaced `holders` with `transferRestricted`/);
    assert.match(
      r.stdout,
      /^storage layout of points \(deployed 0x[0-9a-fA-F]{40} \| new\):\nrefused: 2 unsafe rows$/m,
    );
    assert.match(r.stdout, /^erc7201:points\.storage\.Points$/m);
    assert.match(r.stdout, /^ {2}deployed +new +change$/m);
    // As OpenZeppelin reads it: holders replaced by transferRestricted (a long cell wraps, indented).
    assert.match(
      r.stdout,
      /^ {2}holders +transferRestricted bool +UNSAFE: replaced \(other name and type\)\n {4}mapping\(address=>Holder\)$/m,
    );
    assert.match(r.stdout, /totalSupply uint256 +totalSupply uint256 +unchanged/);
    for (const line of r.stdout.split("\n")) assert.ok(line.length <= 100, `${line.length} columns: ${line}`);
    assert.deepEqual(await nonces(), before, "nothing sent");
  });

  it("validateJson_ofARefusedUpgrade_printsTheRefusalWithItsRows_onStdout", async () => {
    const r = await runCli(args("validate", "acme", "PointsV2UnsafeMock", ["--json"]), as());
    assert.equal(r.code, 5, r.stderr);
    assert.match(errorLine(r), /^error \[UNSAFE_UPGRADE\]: /);
    const out = JSON.parse(r.stdout) as {
      ok: boolean;
      error: { code: string; message: string };
      contract: string;
      deployedArtifact: string;
      newArtifact: string;
      layout: Row[];
    };
    assert.equal(out.ok, false);
    assert.equal(out.error.code, "UNSAFE_UPGRADE");
    assert.match(out.error.message, /Replaced `holders` with `transferRestricted`/);
    assert.deepEqual([out.contract, out.deployedArtifact, out.newArtifact], ["points", "Points", "PointsV2UnsafeMock"]);
    const ours = out.layout.filter((row) => row.namespace === "erc7201:points.storage.Points");
    // The full types, and per row whether it is safe and why.
    assert.ok(
      ours.some((row) => row.old === "holders mapping(address => struct Points.Holder)" && !row.safe),
      JSON.stringify(ours),
    );
    assert.ok(
      ours.some((row) => row.old === "totalSupply uint256" && row.change === "same" && row.reason === "unchanged"),
    );
    assert.ok(out.layout.every((row) => typeof row.reason === "string" && typeof row.safe === "boolean"));
  });

  it("anUpgradeToTheCodeAlreadyRunning_sendsNothing_leavesTheManifestByteIdentical_andSaysSo", async () => {
    const before = await nonces();
    const file = manifest("acme");
    const runs = [
      { run: args("upgrade", "acme", "Points"), key: ACCOUNTS.brand.key },
      { run: args("upgrade", "acme", "Points", ["--unsigned"]), key: ACCOUNTS.executor.key },
      { run: args("upgrade", "acme", "Points", ["--dry-run"]), key: undefined },
    ];
    for (const { run, key } of runs) {
      const r = await runCli(run, as(key));
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /points: already running this code \(0x[0-9a-fA-F]{40}\): nothing sent/);
      const json = await runCli([...run, "--json"], as(key));
      assert.equal(json.code, 0, json.stderr);
      const out = JSON.parse(json.stdout) as { alreadyRunning?: boolean; tx?: unknown; unsignedTx?: unknown };
      assert.equal(out.alreadyRunning, true);
      assert.equal(out.tx, undefined);
      assert.equal(out.unsignedTx, undefined);
    }
    const v = await runCli(args("validate", "acme", "Points"), as());
    assert.equal(v.code, 0, v.stderr);
    assert.match(v.stdout, /points: already running this code \(0x[0-9a-fA-F]{40}\): an upgrade would send nothing/);
    const vj = await runCli(args("validate", "acme", "Points", ["--json"]), as());
    assert.equal(vj.code, 0, vj.stderr);
    assert.deepEqual(
      (({ ok, alreadyRunning }) => ({ ok, alreadyRunning }))(JSON.parse(vj.stdout) as Record<string, unknown>),
      { ok: true, alreadyRunning: true },
    );
    assert.deepEqual(await nonces(), before, "no transaction from anyone");
    assert.ok(manifest("acme").equals(file), "manifest byte-identical");
  });

  it("theSecondProgram_reusesTheImplementationTheFirstDeployed_theExecutorSendsOneDeploymentFewer", async () => {
    const n0 = await provider.getTransactionCount(ACCOUNTS.executor.address);
    const first = await runCli(
      args("upgrade", "acme", "PointsV2Mock", ["--unsigned", "--json"]),
      as(ACCOUNTS.executor.key),
    );
    assert.equal(first.code, 0, first.stderr);
    const a = JSON.parse(first.stdout) as { deployed: boolean; newImplementation: string };
    assert.equal(a.deployed, true);
    assert.equal(await provider.getTransactionCount(ACCOUNTS.executor.address), n0 + 1);

    const dry = await runCli(args("upgrade", "beta", "PointsV2Mock", ["--dry-run"]), as());
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(
      dry.stdout,
      new RegExp(
        `implementation: ${a.newImplementation} \\(already deployed with this bytecode for program acme: reused\\)`,
      ),
    );
    const second = await runCli(args("upgrade", "beta", "PointsV2Mock", ["--unsigned"]), as(ACCOUNTS.executor.key));
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, new RegExp(`${a.newImplementation} \\(already deployed for program acme: reused\\)`));
    assert.equal(await provider.getTransactionCount(ACCOUNTS.executor.address), n0 + 1, "no second deployment");
    const beta = JSON.parse(manifest("beta").toString()) as {
      record: { upgrades: { status: string; newImplementation: string }[] };
    };
    assert.deepEqual(
      beta.record.upgrades.map((u) => [u.status, u.newImplementation]),
      [["proposed", a.newImplementation]],
    );
  });
});
