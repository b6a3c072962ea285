import assert from "node:assert/strict";
import { Interface, type Wallet } from "ethers";
import { devSafe, devWallet, encodeMultiSend, execSafeTx, safeTx, type DevNode } from "@points/testkit";
import { handoverAdmin, MemoryStore, syncProgram, verifyProgram, type ProgramRecord } from "../src/index.js";
import { CHAIN } from "./helpers/fixture.js";
import { deployAcme } from "./helpers/fixture.js";

const ACCEPT = new Interface(["function acceptDefaultAdminTransfer()"]).encodeFunctionData(
  "acceptDefaultAdminTransfer",
);
const KEYS = ["points", "factory", "collateralVault", "pspVault"] as const;
const sorted = (a: string[]) => [...a].sort();

/**
 * verify with a Safe as admin (docs/deployment.md#a-safe-as-admin): the admin handed to a real
 * 2-of-3 Safe v1.4.1, accepted by one Safe transaction batching the four accepts through
 * MultiSendCallOnly, the record synced; verify reports the Safe's owners and threshold.
 */
describe("verify: an admin that is a Safe is reported with its owners and threshold", () => {
  let node: DevNode;
  let brand: Wallet;
  let store: MemoryStore;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  const saved = async () => (await store.getProgram(CHAIN.chainId, "acme")) as ProgramRecord;

  before(async () => {
    ({ node, brand, store } = await deployAcme());
    safe = await devSafe(node.provider);
  });
  after(() => node.stop());

  it("verify_ofAWalletAdmin_reportsTheWallet_andNoSafe", async () => {
    const report = await verifyProgram(await saved(), node.provider);
    assert.deepEqual(report.admin, { address: brand.address });
    assert.equal(report.pendingAdmin, undefined);
  });

  it("verify_duringAHandoverToASafe_reportsThePendingSafe_2of3_itsOwners", async () => {
    await handoverAdmin(await saved(), safe.address, brand, { store });
    const report = await verifyProgram(await saved(), node.provider);
    assert.deepEqual(report.admin, { address: brand.address });
    const pending = report.pendingAdmin!;
    assert.equal(pending.address, safe.address);
    assert.deepEqual([pending.safe!.version, pending.safe!.threshold], ["1.4.1", 2]);
    assert.deepEqual(sorted(pending.safe!.owners), sorted(safe.owners.map((o) => o.address)));
  });

  it("verify_afterTheSafeAcceptedInOneBatch_andSync_reportsTheSafeAsAdmin", async () => {
    const p = await saved();
    const calls = KEYS.map((k) => ({ to: p.addresses[k]!, data: ACCEPT }));
    const plain = await safeTx(node.provider, safe.address, {
      to: safe.infra.multiSendCallOnly,
      data: encodeMultiSend(calls),
    });
    // Signed by two of the three owners, relayed by a wallet that owns nothing.
    const receipt = await execSafeTx(devWallet(9, node.provider), safe.address, { ...plain, operation: 1 }, [
      safe.owners[0]!,
      safe.owners[2]!,
    ]);
    assert.equal(receipt.status, 1);
    const synced = await syncProgram(p, node.provider, { store });
    assert.equal(synced.program.admin, safe.address);
    const report = await verifyProgram(await saved(), node.provider);
    assert.equal(report.admin.address, safe.address);
    assert.deepEqual([report.admin.safe!.version, report.admin.safe!.threshold], ["1.4.1", 2]);
    assert.deepEqual(sorted(report.admin.safe!.owners), sorted(safe.owners.map((o) => o.address)));
    assert.equal(report.pendingAdmin, undefined);
  });
});
