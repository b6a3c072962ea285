import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { id } from "ethers";
import { Factory__factory, Points__factory } from "@points/contracts";
import {
  SAFE_VERSION,
  actors,
  deployProgram,
  devSafe,
  devWallet,
  encodeMultiSend,
  execSafeTx,
  safeContract,
  safeTx,
  safeTxArgs,
  safeTxHash,
  startNode,
  type DevNode,
} from "@points/testkit";

// The testkit's Safe helpers on real Safe v1.4.1 contracts: what the API, deployer and console
// tests of multisig programs build on (docs/architecture.md#safe-multisig).
describe("testkit: a real 2-of-3 Safe v1.4.1 on the local chain", () => {
  let node: DevNode;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  let points: string;
  let factory: string;
  before(async () => {
    node = await startNode();
    safe = await devSafe(node.provider);
    const { record } = await deployProgram(node.provider);
    points = record.points;
    factory = record.factory;
    // The brand wallet (admin) gives the Safe PAUSER_ROLE on Points, as a brand would.
    const p = Points__factory.connect(points, actors(node.provider).brand);
    await (await p.grantRole(id("PAUSER_ROLE"), safe.address)).wait();
  });
  after(() => node?.stop());

  it("devSafe_isASafe141_ownedByDevAccounts6to8_withThreshold2", async () => {
    const s = safeContract(safe.address, node.provider);
    assert.equal(await s.getFunction("VERSION")(), SAFE_VERSION);
    assert.equal(await s.getFunction("getThreshold")(), 2n);
    const owners = ((await s.getFunction("getOwners")()) as string[]).map((a) => a.toLowerCase()).sort();
    const expected = [6, 7, 8].map((i) => devWallet(i).address.toLowerCase()).sort();
    assert.deepEqual(owners, expected);
    assert.equal(await s.getFunction("nonce")(), 0n);
    // Every infrastructure contract has code.
    for (const a of Object.values(safe.infra)) assert.notEqual(await node.provider.getCode(a), "0x", a);
  });

  it("safeTxHash_equalsTheSafesOwnGetTransactionHash", async () => {
    const call = { to: points, data: Points__factory.createInterface().encodeFunctionData("pause") };
    const tx = await safeTx(node.provider, safe.address, call);
    const s = safeContract(safe.address, node.provider);
    const onChain = await s.getFunction("getTransactionHash")(...safeTxArgs(tx));
    assert.equal(safeTxHash(31337n, safe.address, tx), onChain);
  });

  it("execSafeTx_withTwoOwnerSignatures_pausesPoints_andBumpsTheNonce_relayedByANonOwner", async () => {
    const iface = Points__factory.createInterface();
    const p = Points__factory.connect(points, node.provider);
    const tx = await safeTx(node.provider, safe.address, { to: points, data: iface.encodeFunctionData("pause") });
    const relayer = devWallet(9, node.provider);
    const receipt = await execSafeTx(relayer, safe.address, tx, [safe.owners[0]!, safe.owners[2]!]);
    assert.equal(receipt.status, 1);
    assert.equal(await p.paused(), true);
    assert.equal(await safeContract(safe.address, node.provider).getFunction("nonce")(), tx.nonce + 1n);
    // The same signed transaction cannot run twice: the nonce moved on, so the signatures
    // recover to addresses that are not owners (GS026).
    await assert.rejects(execSafeTx(relayer, safe.address, tx, [safe.owners[0]!, safe.owners[2]!]), /GS026/);
    // Unpause needs DEFAULT_ADMIN_ROLE, which the Safe lacks: the brand unpauses.
    await (await p.connect(actors(node.provider).brand).unpause()).wait();
  });

  it("execSafeTx_belowThreshold_isRefusedGS020_andByANonOwner_GS026_andNothingHappens", async () => {
    const p = Points__factory.connect(points, node.provider);
    const data = Points__factory.createInterface().encodeFunctionData("pause");
    const tx = await safeTx(node.provider, safe.address, { to: points, data });
    const relayer = devWallet(9, node.provider);
    await assert.rejects(execSafeTx(relayer, safe.address, tx, [safe.owners[1]!]), /GS020/);
    await assert.rejects(execSafeTx(relayer, safe.address, tx, [safe.owners[1]!, relayer]), /GS026/);
    assert.equal(await p.paused(), false);
    assert.equal(await safeContract(safe.address, node.provider).getFunction("nonce")(), tx.nonce);
  });

  it("encodeMultiSend_delegatecalledThroughMultiSendCallOnly_runsEveryCallInOneSafeTx", async () => {
    const { brand, alice, bob } = actors(node.provider);
    const f = Factory__factory.connect(factory, brand);
    await (await f.grantRole(id("MANAGER_ROLE"), safe.address)).wait();
    const iface = Factory__factory.createInterface();
    const calls = [alice.address, bob.address].map((a) => ({
      to: factory,
      data: iface.encodeFunctionData("addToMintWhitelist", [a]),
    }));
    const tx = {
      ...(await safeTx(node.provider, safe.address, {
        to: safe.infra.multiSendCallOnly,
        data: encodeMultiSend(calls),
      })),
      operation: 1 as const,
    };
    await execSafeTx(devWallet(9, node.provider), safe.address, tx, [safe.owners[0]!, safe.owners[1]!]);
    assert.equal(await f.isMintWhitelisted(alice.address), true);
    assert.equal(await f.isMintWhitelisted(bob.address), true);
  });
});
