/**
 * upgrade and handover through the built CLI against a hardhat node: an unsafe upgrade is
 * refused before any transaction, a safe one is sent by the admin, and DEFAULT_ADMIN_ROLE moves
 * in two steps (begin by the admin, accept by the new admin).
 */
import assert from "node:assert/strict";
import { type DevNode, startNode } from "@points/testkit";
import { ACCOUNTS, cliEnv, deployArgs, errorLine, requireBuilt, runCli, tempDir, upgradeArgs } from "./helpers.js";

describe("points-deployer upgrade and handover (against hardhat node)", function () {
  this.timeout(240_000);
  let node: DevNode;
  let manifests: string;
  const as = (key: string) => cliEnv(node.url, key);

  before(async () => {
    requireBuilt();
    node = await startNode();
    manifests = tempDir("admin");
    const r = await runCli(deployArgs("acme", manifests), as(ACCOUNTS.executor.key));
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => node?.stop());

  const upgradeTo = (impl: string) => upgradeArgs("acme", impl, manifests);

  it("upgrade_refusesUnsafeStorageLayout_beforeAnyTransaction", async () => {
    const r = await runCli(upgradeTo("PointsV2UnsafeMock"), as(ACCOUNTS.brand.key));
    assert.equal(r.code, 5);
    assert.match(errorLine(r), /^error \[UNSAFE_UPGRADE\]: /);
    assert.doesNotMatch(r.stdout, /\] tx 0x/);
  });

  it("upgrade_failsWithWrongKey_whenSignerIsNotTheAdmin", async () => {
    const r = await runCli(upgradeTo("PointsV2Mock"), as(ACCOUNTS.other.key));
    assert.notEqual(r.code, 0);
    assert.match(errorLine(r), /^error \[WRONG_KEY\]: /);
  });

  it("upgrade_unsigned_printsTheTransactionForTheAdmin_andSendsNoUpgrade", async () => {
    const r = await runCli([...upgradeTo("PointsV2Mock"), "--unsigned", "--json"], as(ACCOUNTS.other.key));
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { tx?: unknown; unsignedTx: { to: string; data: string; from: string } };
    assert.equal(out.tx, undefined);
    assert.equal(out.unsignedTx.from, ACCOUNTS.brand.address);
    assert.match(out.unsignedTx.data, /^0x4f1ef286/); // upgradeToAndCall(address,bytes)
  });

  it("upgrade_sendsSafeUpgrade_signedByTheAdmin", async () => {
    const r = await runCli(upgradeTo("PointsV2Mock"), as(ACCOUNTS.brand.key));
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /points upgraded/);
    const v = await runCli(["verify", "--brand", "acme", "--manifest-dir", manifests], { RPC_URL: node.url });
    assert.equal(v.code, 0, v.stderr);
    assert.match(v.stdout, new RegExp(`admin: ${ACCOUNTS.brand.address} \\(a wallet\\)`));
  });

  it("handover_begin_thenAccept_movesTheAdmin", async () => {
    const common = ["--brand", "acme", "--manifest-dir", manifests];
    const begin = await runCli(
      ["handover", "begin", "--new-admin", ACCOUNTS.other.address, ...common],
      as(ACCOUNTS.brand.key),
    );
    assert.equal(begin.code, 0, begin.stderr);
    assert.match(begin.stdout, /admin transfer to 0x3C44/);
    const accept = await runCli(["handover", "accept", ...common], as(ACCOUNTS.other.key));
    assert.equal(accept.code, 0, accept.stderr);
    assert.match(accept.stdout, new RegExp(`${ACCOUNTS.other.address} is the admin`));
  });
});
