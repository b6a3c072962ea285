import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseUnits } from "ethers";
import {
  actors,
  deployProgram,
  fundedCampaign,
  startFaultProxy,
  startNode,
  type DevNode,
  type FaultProxy,
  type ProgramRecord,
} from "@points/testkit";
import { ProgramRegistry, type Db } from "../src/index.js";
import { LedgerReorgTooDeep } from "../src/workers/ledger/indexer.js";
import { indexerOn, vaultAs } from "./helpers/ledger.js";
import { memoryDb } from "./helpers/db.js";

const sp = (n: number) => parseUnits(String(n), 18);

// A node of another chain swapped in behind the one URL looked like a reorg of
// everything; the indexer rolled the ledger back to the deploy block and deleted every event.
describe("ledger: chain identity and reorg depth before anything is deleted", () => {
  let node: DevNode;
  let other: DevNode;
  let proxy: FaultProxy;
  let db: Db;
  let program: ProgramRecord;
  let campaignId: string;

  before(async () => {
    [node, other] = await Promise.all([startNode(), startNode()]);
    proxy = await startFaultProxy(node.url);
    db = await memoryDb();
    let usdc: string;
    ({ record: program, usdc } = await deployProgram(node.provider, "acme"));
    await new ProgramRegistry(db).insert(program);
    ({ campaignId } = await fundedCampaign(node.provider, program, usdc, "launch", 1000n));
    const { brand, alice } = actors(node.provider);
    await (await vaultAs(program, brand).mint(campaignId, alice.address, sp(7), "welcome")).wait();
    // The other chain is longer, as a real one would be (its blocks are not ours).
    await other.mine(40);
  });
  after(async () => {
    await proxy?.close();
    await db?.close();
    await Promise.all([node?.stop(), other?.stop()]);
  });

  const stored = async () =>
    (
      await db.query<{ k: string }>(
        "SELECT event || ':' || block_number || ':' || log_index AS k FROM ledger_events ORDER BY block_number, log_index",
      )
    ).map((r) => r.k);

  it("anotherChainBehindTheUrl_haltsWithChainMismatch_deletesNothing_andResumesWhenSwappedBack", async (t) => {
    const indexer = indexerOn(db, proxy.url, { retry: { retries: 0, minMs: 5, maxMs: 5 } });
    t.after(() => indexer.stop());
    await indexer.catchUp("31337");
    const before = await stored();
    const cursor = await indexer.store.cursor("31337");
    assert.ok(before.some((k) => k.startsWith("PSPMinted:")));

    proxy.faults.target = other.url;
    proxy.faults.chainId = 8453;
    await assert.rejects(indexer.catchUp("31337"), (e: Error & { code?: string }) => e.code === "CHAIN_MISMATCH");
    assert.deepEqual(await stored(), before, "not one event deleted");
    assert.deepEqual(await indexer.store.cursor("31337"), cursor);

    proxy.faults.target = undefined;
    proxy.faults.chainId = undefined;
    await indexer.catchUp("31337");
    assert.deepEqual(await stored(), before, "nothing indexed twice");
    const head = await node.provider.getBlock("latest");
    assert.deepEqual(await indexer.store.cursor("31337"), { number: head!.number, hash: head!.hash });
  });

  it("aReorgDeeperThanLedgerMaxReorgDepth_haltsWithLedgerReorgTooDeep_andDeletesNothing", async (t) => {
    const indexer = indexerOn(db, node.url, { maxReorgDepth: 3 });
    t.after(() => indexer.stop());
    await indexer.catchUp("31337");
    const point = await node.reorgPoint();
    const { brand, bob } = actors(node.provider);
    await (await vaultAs(program, brand).mint(campaignId, bob.address, sp(1), "fork-a")).wait();
    await node.mine(5);
    await indexer.catchUp("31337");
    const before = await stored();
    const cursor = await indexer.store.cursor("31337");

    // Six blocks replaced by another history of seven: deeper than 3.
    await node.reorg(point, { extra: 1 });
    await assert.rejects(
      indexer.catchUp("31337"),
      (e: unknown) => e instanceof LedgerReorgTooDeep && e.code === "LEDGER_REORG_TOO_DEEP" && e.max === 3,
    );
    assert.deepEqual(await stored(), before, "not one event deleted");
    assert.deepEqual(await indexer.store.cursor("31337"), cursor);
  });
});
