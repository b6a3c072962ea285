/**
 * Upgrades checked against what is deployed: a contract edited in place in the working tree is
 * refused (its layout is compared with the layout recorded for the implementation on chain, not
 * with the edited source), `validate` gives the same answer for CI, and `upgrade --dry-run`
 * needs no key, sends nothing, and shows both layouts, the calldata and the simulated result.
 */
import assert from "node:assert/strict";
import { Contract, JsonRpcProvider } from "ethers";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { contractsDir, startNode, type DevNode } from "@points/testkit";
import { IMPLEMENTATION_SLOT, loadArtifact } from "@points/deployer";
import { copyContracts, type ContractsCopy } from "./contractsCopy.js";
import { ACCOUNTS, cliEnv, deployArgs, errorLine, requireBuilt, runCli, tempDir, upgradeArgs } from "./helpers.js";

describe("points-deployer upgrade against the deployed layout (hardhat node, edited contracts copy)", function () {
  this.timeout(900_000);
  let node: DevNode;
  let provider: JsonRpcProvider;
  let manifests: string;
  let copy: ContractsCopy;
  let points: string;
  const as = (key?: string) => cliEnv(node.url, key);
  const state = async () => ({
    block: await provider.getBlockNumber(),
    nonces: await Promise.all(
      [ACCOUNTS.executor, ACCOUNTS.brand, ACCOUNTS.other].map((a) => provider.getTransactionCount(a.address)),
    ),
    implementation: await provider.getStorage(points, IMPLEMENTATION_SLOT),
  });
  const args = (command: string, impl: string, extra: string[] = []) =>
    upgradeArgs("gamma", impl, manifests, { command, extra });

  before(async () => {
    requireBuilt();
    copy = copyContracts();
    // The mistake: a field inserted at the top of Points' ERC-7201 struct, in place.
    copy.edit("contracts/points/Points.sol", (s) =>
      s.replace("struct PointsStorage {\n", "struct PointsStorage {\n        uint256 inserted;\n"),
    );
    // The right way: a field appended at the end, in a new contract.
    const appended = readFileSync(path.join(contractsDir(), "contracts/points/Points.sol"), "utf8")
      .replace(/contract Points is/, "contract PointsAppendedMock is")
      .replace(
        "        bool transferRestricted;\n    }",
        "        bool transferRestricted;\n        uint256 appended;\n    }",
      );
    copy.add("contracts/points/PointsAppendedMock.sol", appended);
    const built = copy.build();
    node = await startNode();
    provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: true, cacheTimeout: -1 });
    manifests = tempDir("live");
    const r = await runCli(deployArgs("gamma", manifests), as(ACCOUNTS.executor.key));
    assert.equal(r.code, 0, r.stderr);
    points = JSON.parse(readFileSync(path.join(manifests, "31337", "gamma.json"), "utf8")).record.addresses.points;
    await built;
  });
  after(async () => {
    provider?.destroy();
    await node?.stop();
    if (copy) rmSync(copy.dir, { recursive: true, force: true });
  });

  it("upgrade_ofAContractEditedInPlace_isRefused_exit5_andSendsNothing", async () => {
    const before = await state();
    const r = await runCli(args("upgrade", "Points", ["--contracts-dir", copy.dir]), as(ACCOUNTS.brand.key));
    assert.equal(r.code, 5, r.stderr);
    const line = errorLine(r);
    assert.match(
      line,
      /^error \[UNSAFE_UPGRADE\]: unsafe upgrade refused: Points: refused as an upgrade of Points at 0x/,
    );
    assert.match(line, /storage layout incompatible with Points at 0x[0-9a-fA-F]{40}/);
    assert.match(line, /Inserted `inserted`/);
    assert.deepEqual(await state(), before, "no transaction, no block, same implementation");
    const live = new Contract(points, loadArtifact("Points").abi, provider);
    assert.equal(await live.transferRestricted(), true);
  });

  it("validate_ofTheEditedContract_exits5_andOfAnAppendedField_exits0_withTheLayoutSideBySide", async () => {
    const before = await state();
    const refused = await runCli(args("validate", "Points", ["--contracts-dir", copy.dir]), as());
    assert.equal(refused.code, 5, refused.stderr);
    assert.match(errorLine(refused), /^error \[UNSAFE_UPGRADE\]: .*Inserted `inserted`/);
    // The refusal shows its table: one inserted row, the fields after it unchanged, within 100 columns.
    assert.match(refused.stdout, /^ {2}- +inserted uint256 +UNSAFE: inserted before existing fields$/m);
    for (const line of refused.stdout.split("\n")) assert.ok(line.length <= 100, line);
    const ok = await runCli(args("validate", "PointsAppendedMock", ["--contracts-dir", copy.dir]), as());
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /PointsAppendedMock may replace Points \(0x[0-9a-fA-F]{40}\) behind points/);
    assert.match(ok.stdout, /^erc7201:points\.storage\.Points$/m);
    // PointsAppendedMock declares its own copy of the Holder struct, with the same members.
    assert.match(ok.stdout, /^ {2}holders mapping\(address=>Holder\) +holders mapping\(address=>Holder\) +unchanged$/m);
    assert.match(ok.stdout, /^ {2}transferRestricted bool +transferRestricted bool +unchanged$/m);
    assert.match(ok.stdout, /^ {2}- +appended uint256 +appended at the end$/m);
    const json = await runCli(args("validate", "PointsAppendedMock", ["--contracts-dir", copy.dir, "--json"]), as());
    assert.equal(json.code, 0, json.stderr);
    const report = JSON.parse(json.stdout) as { ok: boolean; layout: Record<string, unknown>[] };
    assert.equal(report.ok, true);
    assert.deepEqual(
      report.layout.find((r) => r.namespace === "erc7201:points.storage.Points" && r.index === 0),
      {
        namespace: "erc7201:points.storage.Points",
        index: 0,
        old: "holders mapping(address => struct Points.Holder)",
        next: "holders mapping(address => struct PointsAppendedMock.Holder)",
        change: "same",
        safe: true,
        reason: "unchanged",
      },
    );
    assert.deepEqual(await state(), before);
  });

  it("upgradeDryRun_withoutAKey_sendsNothing_andPrintsLayoutsCalldataAndASuccessfulSimulation", async () => {
    const before = await state();
    const r = await runCli(args("upgrade", "PointsAppendedMock", ["--contracts-dir", copy.dir, "--dry-run"]), as());
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /dry run: nothing was sent/);
    assert.match(r.stdout, /appended uint256 +appended at the end/);
    assert.match(r.stdout, /implementation: would be deployed \(simulated at 0x[0-9a-fA-F]{40}\)/);
    assert.match(r.stdout, new RegExp(`from: ${ACCOUNTS.brand.address} \\(the admin\\)`));
    assert.match(r.stdout, /calldata: 0x4f1ef286/); // upgradeToAndCall(address,bytes)
    assert.match(r.stdout, /simulation: succeeds/);
    assert.deepEqual(await state(), before, "no nonce moved, no block mined");
  });

  it("upgradeDryRun_ofACallThatReverts_printsTheDecodedRevert", async () => {
    const before = await state();
    // A second initialize through upgradeToAndCall: the proxy is already initialized.
    const again = new Contract(points, loadArtifact("Points").abi).interface.encodeFunctionData("initialize", [
      "X",
      "X",
      ACCOUNTS.brand.address,
      0,
      ACCOUNTS.brand.address,
      [],
    ]);
    const r = await runCli(args("upgrade", "PointsV2Mock", ["--dry-run", "--call", again, "--json"]), as());
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { dryRun: { simulation: { ok: boolean; error: string } } };
    assert.equal(out.dryRun.simulation.ok, false);
    assert.match(out.dryRun.simulation.error, /reverted with InvalidInitialization\(\)/);
    assert.deepEqual(await state(), before);
  });
});
