import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { parseUnits } from "ethers";
import { actors, deployProgram, fundedCampaign, startNode, type DevNode, type ProgramRecord } from "@points/testkit";
import { ProgramRegistry, type Db } from "../src/index.js";
import { startRpcProxy, type RpcProxy } from "./helpers/rpcProxy.js";
import { startApi } from "./helpers/service.js";
import { chainState, indexerOn, ledgerComparable, sortBalances, vaultAs } from "./helpers/ledger.js";
import { memoryDb } from "./helpers/db.js";

// The ledger's indexer against a real Hardhat node (docs/architecture.md#the-ledger).
describe("ledger: indexer", () => {
  let node: DevNode;
  let proxy: RpcProxy;
  let db: Db;
  let program: ProgramRecord;
  let usdc: string;
  let programFactory: string;
  let campaignId: string;
  const sp = (n: number | bigint) => parseUnits(String(n), 18);
  const ACTIVE = 1n; // CampaignStatus

  before(async () => {
    node = await startNode();
    proxy = await startRpcProxy(node.url);
    db = await memoryDb();
    ({ record: program, usdc, programFactory } = await deployProgram(node.provider, "acme"));
    await new ProgramRegistry(db).insert(program);
    ({ campaignId } = await fundedCampaign(node.provider, program, usdc, "launch", 1000n));
  });
  after(async () => {
    await db?.close();
    await proxy?.close();
    await node?.stop();
  });

  const events = (name: string) =>
    db.query<{ args: Record<string, string>; block_number: string }>(
      "SELECT args, block_number FROM ledger_events WHERE event = $1 ORDER BY block_number, log_index",
      [name],
    );

  it("catchUp_fromTheDeployBlock_storesEveryEventDecoded_inBoundedRanges", async (t) => {
    const { alice } = actors(node.provider);
    const { brand } = actors(node.provider);
    await (await vaultAs(program, brand).mint(campaignId, alice.address, sp(7), "welcome")).wait();
    proxy.reset();
    const indexer = indexerOn(db, proxy.url, { range: 3 });
    t.after(() => indexer.stop());
    await indexer.catchUp("31337");
    const head = await node.provider.getBlockNumber();

    const created = await events("CampaignCreated");
    assert.equal(created.length, 1);
    assert.equal(created[0]!.args.campaignId, campaignId);
    assert.equal(created[0]!.args.spBudget, sp(1000).toString());
    assert.equal(created[0]!.args.creator, brand.address);
    const minted = await events("PSPMinted");
    assert.deepEqual(
      minted.map((e) => [e.args.to, e.args.amount, e.args.metadata]),
      [[alice.address, sp(7).toString(), "welcome"]],
    );
    // Role grants of the deploy transaction itself are there (the program's first block).
    const grants = await db.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM ledger_events WHERE event = 'RoleGranted' AND block_number = $1",
      [program.blockNumber],
    );
    assert.ok(Number(grants[0]!.n) >= 5, `role grants at birth: ${grants[0]!.n}`);
    const cursor = await indexer.store.cursor("31337");
    assert.equal(cursor!.number, head);
    // Every eth_getLogs asked for at most 3 blocks, and together they cover deploy..head once.
    const ranges = proxy.calls
      .filter((c) => c.method === "eth_getLogs")
      .map((c) => {
        const f = c.params[0] as { fromBlock: string; toBlock: string };
        return [Number(f.fromBlock), Number(f.toBlock)] as const;
      });
    assert.ok(
      ranges.every(([a, b]) => b - a + 1 <= 3 && b >= a),
      JSON.stringify(ranges),
    );
    assert.equal(ranges[0]![0], program.blockNumber);
    assert.equal(ranges[ranges.length - 1]![1], head);
    for (let i = 1; i < ranges.length; i++) assert.equal(ranges[i]![0], ranges[i - 1]![1] + 1);
  });

  it("restart_resumesFromTheCursor_withoutReadingHistoryAgain", async (t) => {
    const { brand, bob } = actors(node.provider);
    proxy.reset();
    const second = indexerOn(db, proxy.url);
    t.after(() => second.stop());
    await second.catchUp("31337");
    assert.equal(proxy.methods().filter((m) => m === "eth_getLogs").length, 0, "nothing new: no log query");
    const before = await db.query<{ n: string }>("SELECT count(*)::text AS n FROM ledger_events");

    const receipt = await (await vaultAs(program, brand).mint(campaignId, bob.address, sp(3), "")).wait();
    proxy.reset();
    await second.catchUp("31337");
    const getLogs = proxy.calls.filter((c) => c.method === "eth_getLogs");
    assert.equal(getLogs.length, 1);
    const f = getLogs[0]!.params[0] as { fromBlock: string; toBlock: string };
    assert.deepEqual([Number(f.fromBlock), Number(f.toBlock)], [receipt!.blockNumber, receipt!.blockNumber]);
    const afterRows = await db.query<{ n: string }>("SELECT count(*)::text AS n FROM ledger_events");
    assert.equal(Number(afterRows[0]!.n), Number(before[0]!.n) + 1);
  });

  it("programFactoryEvent_newProgramIsFollowed_withoutRestartOrRegistration", async (t) => {
    const indexer = indexerOn(db, proxy.url);
    t.after(() => indexer.stop());
    await indexer.catchUp("31337");
    const { record: beta } = await deployProgram(node.provider, "beta", {
      release: { programFactory, usdc },
    });
    await indexer.catchUp("31337");
    const followed = await indexer.store.programs("31337");
    const b = followed.find((p) => p.programId === "beta");
    assert.ok(b, "beta is followed");
    assert.equal(b.source, "factory");
    assert.equal(b.pspVault, beta.pspVault.toLowerCase());
    assert.equal(b.fromBlock, beta.blockNumber);
    // Its contracts' events of the deploy block itself are in the ledger.
    const rows = await db.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM ledger_events WHERE program_id = 'beta' AND address = $1 AND event = 'RoleGranted'",
      [beta.pspVault.toLowerCase()],
    );
    assert.ok(Number(rows[0]!.n) >= 1);
  });

  it("nodeWithoutBlockTimestampInLogs_readsBlockHeaders_forTheEventTimes", async (t) => {
    const plain = await memoryDb();
    await new ProgramRegistry(plain).insert(program);
    const bare = await startRpcProxy(node.url);
    bare.rewrite = (body) => body.replace(/"blockTimestamp":"0x[0-9a-f]+",?/g, "");
    const indexer = indexerOn(plain, bare.url);
    t.after(async () => {
      await indexer.stop();
      await bare.close();
      await plain.close();
    });
    await indexer.catchUp("31337");
    assert.ok(bare.methods().filter((m) => m === "eth_getBlockByNumber").length > 3, "headers were read");
    const rows = await plain.query<{ block_number: string; block_time: string }>(
      "SELECT DISTINCT block_number::text AS block_number, block_time::text AS block_time FROM ledger_events",
    );
    assert.ok(rows.length > 3);
    for (const r of rows) {
      assert.equal(Number(r.block_time), (await node.provider.getBlock(Number(r.block_number)))!.timestamp);
    }
  });

  it("rpcFaults_429s500sAndDroppedConnections_areRetried_andTheLedgerMatchesTheChain", async (t) => {
    const { brand, carol } = actors(node.provider);
    await (await vaultAs(program, brand).mint(campaignId, carol.address, sp(11), "")).wait();
    let n = 0;
    // Two failures of every kind before each third request goes through.
    proxy.fault = () => {
      n++;
      if (n % 3 === 1) return { status: 429, body: "Too Many Requests" };
      if (n % 3 === 2)
        return n % 2 === 0
          ? "drop"
          : { status: 500, body: '{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"boom"}}' };
      return undefined;
    };
    const indexer = indexerOn(db, proxy.url);
    t.after(() => indexer.stop());
    try {
      await indexer.catchUp("31337");
    } finally {
      proxy.fault = undefined;
    }
    assert.ok(n > 6, `faults injected: ${n}`);
    const minted = await events("PSPMinted");
    assert.equal(minted.filter((e) => e.args.to === carol.address).length, 1);
    const { alice, bob } = actors(node.provider);
    const holders = [alice, bob, carol].map((w) => w.address);
    const chain = await chainState(node.provider, program, [campaignId], holders);
    const ledger = await ledgerComparable(db, "acme");
    assert.deepEqual(ledger.campaigns, chain.campaigns);
    assert.deepEqual(sortBalances(ledger.balances), sortBalances(chain.balances));
  });

  it("reorg_evmRevertAndADifferentHistory_rollsTheLedgerBackAndReplays", async (t) => {
    const { brand, alice, bob } = actors(node.provider);
    const indexer = indexerOn(db, proxy.url);
    t.after(() => indexer.stop());
    await indexer.catchUp("31337");
    const snap = await node.snapshot();
    await (await vaultAs(program, brand).mint(campaignId, alice.address, sp(100), "fork-a")).wait();
    await (await vaultAs(program, brand).mint(campaignId, alice.address, sp(1), "fork-a")).wait();
    await indexer.catchUp("31337");
    assert.equal((await events("PSPMinted")).filter((e) => e.args.metadata === "fork-a").length, 2);

    await node.revert(snap);
    await (await vaultAs(program, brand).mint(campaignId, bob.address, sp(50), "fork-b")).wait();
    await node.mine(3);
    await indexer.catchUp("31337");

    const minted = await events("PSPMinted");
    assert.equal(minted.filter((e) => e.args.metadata === "fork-a").length, 0, "fork A's events are gone");
    assert.equal(minted.filter((e) => e.args.metadata === "fork-b").length, 1);
    const cursor = await indexer.store.cursor("31337");
    const head = await node.provider.getBlock("latest");
    assert.deepEqual(cursor, { number: head!.number, hash: head!.hash });
    const holders = [alice, bob, actors(node.provider).carol].map((w) => w.address);
    const chain = await chainState(node.provider, program, [campaignId], holders);
    const ledger = await ledgerComparable(db, "acme");
    assert.deepEqual(ledger.campaigns, chain.campaigns);
    assert.deepEqual(sortBalances(ledger.balances), sortBalances(chain.balances));
  });

  it("inProcess_confirmationDepth2_indexesAnEventOnlyTwoBlocksDeep_andCloseStopsTheIndexer", async () => {
    const api = await startApi(node.url, { LEDGER: "inline", LEDGER_CONFIRMATIONS: "2", LEDGER_POLL_MS: "20" });
    const { ledger, ctx } = api.service;
    assert.ok(ledger, "LEDGER=inline runs the indexer in the API process");
    try {
      await ctx.programs.insert(program);
      const { brand, alice } = actors(node.provider);
      // The random operations above may have left the campaign paused.
      if ((await vaultAs(program, brand).getCampaign(campaignId)).status !== ACTIVE) {
        await (await vaultAs(program, brand).resumeCampaign(campaignId)).wait();
      }
      const receipt = await (await vaultAs(program, brand).mint(campaignId, alice.address, sp(2), "deep")).wait();
      const seen = async () =>
        (await ctx.db.query("SELECT 1 FROM ledger_events WHERE tx_hash = $1", [receipt!.hash])).length;
      const cursor = async () =>
        Number((await ctx.db.query<{ n: string }>("SELECT block_number::text AS n FROM ledger_cursors"))[0]?.n ?? -1);
      const deadline = Date.now() + 20_000;
      while ((await cursor()) < receipt!.blockNumber - 2 && Date.now() < deadline) await sleep(20);
      await sleep(200);
      assert.equal(await seen(), 0, "at the head: not yet confirmed");
      assert.equal(await cursor(), receipt!.blockNumber - 2);
      await node.mine(2);
      while ((await seen()) === 0 && Date.now() < deadline) await sleep(20);
      assert.equal(await seen(), 1);
      assert.equal(await cursor(), receipt!.blockNumber);
    } finally {
      await api.close();
    }
    // Closed: the lease is given back at once (another instance need not wait for it to expire).
    assert.equal(await ledger.store.lease("31337", "someone-else", 1000).catch(() => "db closed"), "db closed");
  });
});
