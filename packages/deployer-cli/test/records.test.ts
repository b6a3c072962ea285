/**
 * Through the built CLI: an upgrade prepared with --unsigned and executed by the admin outside
 * the deployer (as a multisig would), then `sync` and `verify`; and the whole handover with
 * `status`, `cancel` and --unsigned steps for another signer.
 */
import assert from "node:assert/strict";
import { JsonRpcProvider, Wallet } from "ethers";
import { startNode, type DevNode } from "@points/testkit";
import { ACCOUNTS, cliEnv, deployArgs, errorLine, requireBuilt, runCli, tempDir, upgradeArgs } from "./helpers.js";

describe("points-deployer sync, verify and handover steps (against hardhat node)", function () {
  this.timeout(300_000);
  let node: DevNode;
  let provider: JsonRpcProvider;
  let manifests: string;
  const as = (key?: string) => cliEnv(node.url, key);
  const brandArgs = () => ["--brand", "delta", "--manifest-dir", manifests];
  const unsignedUpgrade = () => upgradeArgs("delta", "PointsV2Mock", manifests, { extra: ["--unsigned"] });

  before(async () => {
    requireBuilt();
    node = await startNode();
    provider = new JsonRpcProvider(node.url, undefined, { staticNetwork: true, cacheTimeout: -1 });
    manifests = tempDir("records");
    const r = await runCli(deployArgs("delta", manifests), as(ACCOUNTS.executor.key));
    assert.equal(r.code, 0, r.stderr);
  });
  after(async () => {
    provider?.destroy();
    await node?.stop();
  });

  it("unsignedUpgrade_withoutKeyOrAt_exits2_sayingAnyFundedKeyMayDeployTheImplementation", async () => {
    const r = await runCli(unsignedUpgrade(), as());
    assert.equal(r.code, 2);
    assert.equal(
      errorLine(r),
      "error [USAGE]: --unsigned deploys the new implementation first, which needs a funded key (any key; the " +
        "implementation is harmless until a proxy points at it): pass --private-key, or --at <address> of a deployed one",
    );
  });

  it("upgradeExecutedOutside_thenSync_thenVerify_passes", async () => {
    const first = await runCli(unsignedUpgrade(), as(ACCOUNTS.other.key));
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /unsigned upgrade \(sign and send as the admin\)/);
    assert.match(
      first.stdout,
      new RegExp(
        `newImplementation: 0x[0-9a-fA-F]{40} \\(deployed by ${ACCOUNTS.other.address}; any funded key may deploy it, it is harmless until a proxy points at it\\)`,
      ),
    );
    const nonce = await provider.getTransactionCount(ACCOUNTS.other.address);
    const second = await runCli([...unsignedUpgrade(), "--json"], as(ACCOUNTS.other.key));
    assert.equal(second.code, 0, second.stderr);
    type Out = { deployed: boolean; newImplementation: string; unsignedTx: { to: string; data: string } };
    const out = JSON.parse(second.stdout) as Out;
    assert.equal(out.deployed, false, "the second proposal reuses the first implementation");
    assert.equal(await provider.getTransactionCount(ACCOUNTS.other.address), nonce);

    // Without a key, --at names the implementation: checked on chain, then the same transaction.
    const viaAt = await runCli([...unsignedUpgrade(), "--at", out.newImplementation, "--json"], as());
    assert.equal(viaAt.code, 0, viaAt.stderr);
    const at = JSON.parse(viaAt.stdout) as Out;
    assert.deepEqual(
      [at.deployed, at.newImplementation, at.unsignedTx],
      [false, out.newImplementation, out.unsignedTx],
    );
    const wrong = await runCli([...unsignedUpgrade(), "--at", out.unsignedTx.to], as());
    assert.equal(wrong.code, 2);
    assert.equal(
      errorLine(wrong),
      `error [INVALID_CONFIG]: invalid configuration: implementation: ${out.unsignedTx.to}: it does not hold PointsV2Mock`,
    );

    const admin = new Wallet(ACCOUNTS.brand.key, provider);
    await (await admin.sendTransaction({ to: out.unsignedTx.to, data: out.unsignedTx.data })).wait();

    const sync = await runCli(["sync", ...brandArgs()], as());
    assert.equal(sync.code, 0, sync.stderr);
    assert.match(
      sync.stdout,
      /^program "delta": manifest updated\n {2}points: the chain runs 0x[0-9a-fA-F]{40} \(PointsV2Mock\)/m,
    );
    const verify = await runCli(["verify", ...brandArgs()], as());
    assert.equal(verify.code, 0, verify.stderr);
    const again = await runCli(["sync", ...brandArgs()], as());
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /the manifest already follows the chain/);
  });

  it("handover_unsignedBegin_begin_status_cancel_thenAcceptByTheSecondKey", async () => {
    const unsigned = await runCli(
      ["handover", "begin", "--new-admin", ACCOUNTS.other.address, "--unsigned", ...brandArgs()],
      as(),
    );
    assert.equal(unsigned.code, 0, unsigned.stderr);
    assert.match(
      unsigned.stdout,
      new RegExp(`^4 unsigned transaction\\(s\\) for ${ACCOUNTS.brand.address} to sign`, "m"),
    );

    const begin = await runCli(
      ["handover", "begin", "--new-admin", ACCOUNTS.other.address, ...brandArgs()],
      as(ACCOUNTS.brand.key),
    );
    assert.equal(begin.code, 0, begin.stderr);
    const status = await runCli(["handover", "status", ...brandArgs()], as());
    assert.equal(status.code, 0, status.stderr);
    assert.match(status.stdout, new RegExp(`^admin of "delta": ${ACCOUNTS.other.address} can accept now\n`, "m"));
    assert.match(
      status.stdout,
      new RegExp(`points: admin ${ACCOUNTS.brand.address}, pending ${ACCOUNTS.other.address} after `),
    );

    const cancelUnsigned = await runCli(["handover", "cancel", "--unsigned", "--json", ...brandArgs()], as());
    assert.equal(cancelUnsigned.code, 0, cancelUnsigned.stderr);
    const txs = JSON.parse(cancelUnsigned.stdout) as { from: string; data: string }[];
    assert.deepEqual(
      txs.map((t) => [t.from, t.data]),
      [0, 1, 2, 3].map(() => [ACCOUNTS.brand.address, "0xd602b9fd"]), // cancelDefaultAdminTransfer()
    );
    const cancel = await runCli(["handover", "cancel", ...brandArgs()], as(ACCOUNTS.brand.key));
    assert.equal(cancel.code, 0, cancel.stderr);
    const after = await runCli(["handover", "status", ...brandArgs()], as());
    assert.match(after.stdout, /^admin of "delta": no admin transfer is pending\n/m);
    assert.equal((await runCli(["verify", ...brandArgs()], as())).code, 0);

    const again = await runCli(
      ["handover", "begin", "--new-admin", ACCOUNTS.other.address, ...brandArgs()],
      as(ACCOUNTS.brand.key),
    );
    assert.equal(again.code, 0, again.stderr);
    const acceptUnsigned = await runCli(["handover", "accept", "--unsigned", ...brandArgs()], as());
    assert.equal(acceptUnsigned.code, 0, acceptUnsigned.stderr);
    assert.match(
      acceptUnsigned.stdout,
      new RegExp(`^4 unsigned transaction\\(s\\) for ${ACCOUNTS.other.address} to sign`, "m"),
    );
    const accept = await runCli(["handover", "accept", ...brandArgs()], as(ACCOUNTS.other.key));
    assert.equal(accept.code, 0, accept.stderr);
    assert.match(accept.stdout, new RegExp(`${ACCOUNTS.other.address} is the admin`));
    assert.equal((await runCli(["verify", ...brandArgs()], as())).code, 0);
  });
});
