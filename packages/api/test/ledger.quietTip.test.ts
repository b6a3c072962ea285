import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { Wallet, parseUnits } from "ethers";
import { MockStablecoin__factory } from "@points/contracts";
import { actors, type DevNode, type ProgramRecord } from "@points/testkit";
import type { Db } from "../src/index.js";
import { bloomMayHold } from "../src/core/ledger/bloom.js";
import type { RpcHeader } from "../src/core/ledger/rpc.js";
import type { LedgerIndexer } from "../src/workers/ledger/indexer.js";
import type { RpcProxy } from "./helpers/rpcProxy.js";
import { indexerOn, vaultAs } from "./helpers/ledger.js";
import { idleLedgerFixture, isHeadRequest, type IdleLedgerFixture } from "./helpers/idleLedger.js";

// The quiet tip (packages/api/README.md#the-indexer): a block with no transaction, or whose logs
// bloom shows no followed contract, is committed from the header the pass read, with no
// eth_getLogs and no other header; anything else (a bloom that may hold ours, a reorg, a skipped
// block, a chain set to `logsBloom: false`) is read as before. On every node the suite runs on.
describe("ledger: blocks the quiet tip covers are committed from the head's header alone", () => {
  let f: IdleLedgerFixture;
  let node: DevNode;
  let db: Db;
  let proxy: RpcProxy;
  let program: ProgramRecord;
  let usdc: string;
  let campaignId: string;

  before(async () => {
    f = await idleLedgerFixture();
    ({ node, db, proxy, program, usdc, campaignId } = f);
  });
  after(() => f?.close());

  const cursorAt = () => f.cursorAt();
  const header = (tag: string | number) =>
    node.provider.send("eth_getBlockByNumber", [
      typeof tag === "number" ? `0x${tag.toString(16)}` : tag,
      false,
    ]) as Promise<RpcHeader>;
  /** A block holding only a log of a contract the ledger does not follow (the collateral token's Transfer). */
  const otherContractsBlock = async () => {
    const { brand, alice } = actors(node.provider);
    return (await (await MockStablecoin__factory.connect(usdc, brand).mint(alice.address, 1n)).wait())!;
  };
  const mintBlock = async () => {
    const { brand, alice } = actors(node.provider);
    return (await (await vaultAs(program, brand).mint(campaignId, alice.address, parseUnits("1", 18), "")).wait())!;
  };
  /** An indexer stepped by hand (not started); 60 s polls and lease: no time-based step unless asked for. */
  function handStepped(t: { after(fn: () => Promise<void>): void }, chainOpts = {}, pollMs = 60_000) {
    const indexer: LedgerIndexer = indexerOn(db, proxy.url, { pollMs, leaseMs: 60_000 }, chainOpts);
    t.after(() => indexer.stop());
    const pass = () => (indexer as unknown as { pass(): Promise<boolean> }).pass();
    return { indexer, pass };
  }
  async function quietAtHead(pass: () => Promise<boolean>) {
    while (await pass()) {
      /* until a pass finds nothing to do */
    }
    await node.mine(1);
    await pass(); // this indexer's first commit, so that empty ranges may wait
    await pass(); // the header after it starts the quiet tip
  }

  it("bloomMayHold_isTrueForTheEmittersOfABlocksLogs_falseForAContractWithNone_andTrueForAnEmptyOrOddBloom", async () => {
    const receipt = await mintBlock();
    const h = await header(receipt.blockNumber);
    const emitters = [...new Set(receipt.logs.map((l) => l.address.toLowerCase()))];
    assert.ok(emitters.length > 0);
    for (const a of emitters) assert.equal(bloomMayHold(h.logsBloom, [a]), true, a);
    // The collateral token emitted nothing in the mint's block; a bloom lacks it unless its bits collide.
    const absent = [usdc.toLowerCase(), Wallet.createRandom().address.toLowerCase()];
    assert.equal(absent.filter((a) => !bloomMayHold(h.logsBloom, [a])).length >= 1, true);
    assert.equal(bloomMayHold("0x" + "0".repeat(512), [usdc.toLowerCase()]), true, "an empty bloom proves nothing");
    assert.equal(bloomMayHold(undefined, [usdc.toLowerCase()]), true, "no bloom proves nothing");
    assert.equal(bloomMayHold("0x1234", [usdc.toLowerCase()]), true, "a bloom of the wrong length proves nothing");
  });

  it("emptyBlocks_eachPassIsOneHeaderRequest_andTheirCommitAsksNothingMore", async (t) => {
    const { pass } = handStepped(t, {}, 50);
    await quietAtHead(pass);
    for (let i = 0; i < 3; i++) {
      await node.mine(1);
      proxy.reset();
      assert.equal(await pass(), false, "nothing to read");
      const calls = proxy.calls.filter((c) => c.method !== "eth_chainId");
      assert.deepEqual(calls.map(isHeadRequest), [true], `empty block ${i + 1}: the head's header and nothing else`);
    }
    // The commit when it is due (eight 50 ms polls after the last) reads nothing more.
    await sleep(450);
    await node.mine(1);
    proxy.reset();
    await pass();
    assert.deepEqual(
      proxy.calls.filter((c) => c.method !== "eth_chainId").map(isHeadRequest),
      [true],
      "the commit of four empty blocks: the head's header and nothing else",
    );
    const head = await node.provider.getBlockNumber();
    assert.equal(await cursorAt(), head);
    const stored = await db.query<{ hash: string }>(
      "SELECT block_hash AS hash FROM ledger_blocks WHERE block_number = $1",
      [head],
    );
    assert.equal(stored[0]?.hash, (await header(head)).hash, "the head's header is the one stored");
  });

  it("blockWithOnlyAnotherContractsLog_isCoveredByItsBloom_noGetLogs", async (t) => {
    const { pass } = handStepped(t);
    await quietAtHead(pass);
    await otherContractsBlock();
    proxy.reset();
    assert.equal(await pass(), false);
    assert.deepEqual(proxy.calls.filter((c) => c.method !== "eth_chainId").map(isHeadRequest), [true]);
  });

  it("chainSetToLogsBloomFalse_aBlockWithATransaction_isReadWithGetLogs", async (t) => {
    const { pass } = handStepped(t, { logsBloom: false });
    await quietAtHead(pass);
    await otherContractsBlock();
    proxy.reset();
    await pass();
    assert.ok(proxy.methods().includes("eth_getLogs"), "the bloom is not trusted: the block's logs are asked for");
  });

  it("blockWithALogOfOurs_isReadAndIndexed_evenRightAfterQuietBlocks", async (t) => {
    const { pass } = handStepped(t);
    await quietAtHead(pass);
    await node.mine(2);
    await pass();
    const receipt = await mintBlock();
    proxy.reset();
    assert.equal(await pass(), true);
    assert.ok(proxy.methods().includes("eth_getLogs"));
    assert.equal(await cursorAt(), receipt.blockNumber);
    assert.equal((await db.query("SELECT 1 FROM ledger_events WHERE tx_hash = $1", [receipt.hash])).length, 1);
  });

  it("quietBlockReplacedAtTheSameHeightByABlockWithOurLog_theNextPassIndexesIt", async (t) => {
    const { pass } = handStepped(t);
    await quietAtHead(pass);
    const snapshot = await node.snapshot();
    await node.mine(1);
    await pass(); // the empty block joins the quiet tip, uncommitted (a commit was made recently)
    const replaced = (await header("latest")).hash;
    await node.revert(snapshot);
    const receipt = await mintBlock(); // the same height, another block
    assert.notEqual((await header(receipt.blockNumber)).hash, replaced);
    assert.equal(await pass(), true, "the head's number did not move, its hash did: the pass steps");
    assert.equal(await cursorAt(), receipt.blockNumber);
    assert.equal((await db.query("SELECT 1 FROM ledger_events WHERE tx_hash = $1", [receipt.hash])).length, 1);
    assert.deepEqual(await db.query("SELECT 1 FROM ledger_blocks WHERE block_hash = $1", [replaced]), []);
  });

  it("quietBlocksReplacedByALongerQuietFork_areCommittedWithTheNewForksHashes", async (t) => {
    const { pass } = handStepped(t, {}, 50);
    await quietAtHead(pass);
    const snapshot = await node.snapshot();
    await node.mine(2);
    await pass(); // two empty blocks, seen in one header: the tip starts at the head
    await node.revert(snapshot);
    await node.mine(3);
    await sleep(450); // past the full step (eight 50 ms polls): the empty blocks are committed
    while (await pass()) {
      /* until nothing is left */
    }
    const head = await node.provider.getBlockNumber();
    assert.equal(await cursorAt(), head);
    const stored = await db.query<{ hash: string }>(
      "SELECT block_hash AS hash FROM ledger_blocks WHERE block_number = $1",
      [head],
    );
    assert.equal(stored[0]?.hash, (await header(head)).hash, "the stored block is the new fork's");
  });
});
