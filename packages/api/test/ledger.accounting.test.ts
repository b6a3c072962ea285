import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { parseUnits } from "ethers";
import { Points__factory } from "@points/contracts";
import { actors, deployProgram, fundedCampaign, startNode, type DevNode, type ProgramRecord } from "@points/testkit";
import { ProgramRegistry, type Db } from "../src/index.js";
import { foldPsp, pspEvents } from "../src/core/ledger/state.js";
import { spHoldersPage } from "../src/core/ledger/stateRead.js";
import { backends, closeDb, freshDb } from "./helpers/db.js";
import { startRpcProxy, type RpcProxy } from "./helpers/rpcProxy.js";
import {
  brandBuysSp,
  chainState,
  id,
  indexerOn,
  ledgerComparable,
  ledgerState,
  sortBalances,
  vaultAs,
} from "./helpers/ledger.js";

// Exactly-once accounting (docs/architecture.md#the-ledger): after a long random sequence of
// operations, and across a reorg, the ledger's state tables (what the read routes answer) equal
// the chain's own views and a fold of every stored event, on PGlite and on PostgreSQL.
for (const backend of backends()) {
  describe(`ledger: exactly-once accounting on ${backend.name}`, () => {
    let node: DevNode;
    let proxy: RpcProxy;
    let db: Db;
    let program: ProgramRecord;
    let usdc: string;
    let campaignId: string;
    const sp = (n: number | bigint) => parseUnits(String(n), 18);
    const [ACTIVE, CLOSED] = [1n, 3n]; // CampaignStatus

    before(async () => {
      node = await startNode();
      proxy = await startRpcProxy(node.url);
      db = await freshDb(backend);
      ({ record: program, usdc } = await deployProgram(node.provider, "acme"));
      await new ProgramRegistry(db).insert(program);
      ({ campaignId } = await fundedCampaign(node.provider, program, usdc, "launch", 1000n));
    });
    after(async () => {
      await closeDb(backend, db);
      await proxy?.close();
      await node?.stop();
    });

    it("randomOperationsWithAFixedSeed_andAReorg_stateTablesEqualTheChainsViews_andAFoldOfTheEvents", async (t) => {
      const { brand, alice, bob, carol } = actors(node.provider);
      const holders = [alice, bob, carol];
      await brandBuysSp(node.provider, program, usdc, 5000n);
      const second = id("second");
      const vault = vaultAs(program, brand);
      await (
        await vault.createCampaign(
          second,
          sp(500),
          [brand.address],
          holders.map((h) => h.address),
          "two",
        )
      ).wait();
      await (await vault.updateSettlementWhitelist(campaignId, brand.address, true)).wait();
      for (const h of holders) await (await vault.updateTransferWhitelist(campaignId, h.address, true)).wait();
      await (await vault.setMinter(second, carol.address, sp(40), true)).wait();
      const campaigns = [campaignId, second];

      const op = fc.record({
        kind: fc.constantFrom("mint", "mint", "settle", "expire", "transfer", "fund", "toggle", "minter"),
        c: fc.nat(1),
        h: fc.nat(2),
        to: fc.nat(2),
        amount: fc.integer({ min: 1, max: 30 }),
      });
      const run = async (seed: number, count: number) => {
        const ops = fc.sample(fc.array(op, { minLength: count, maxLength: count }), { seed, numRuns: 1 })[0]!;
        for (const o of ops) {
          const cid = campaigns[o.c]!;
          const h = holders[o.h]!;
          const c = await vault.getCampaign(cid);
          const bal = await vault.balanceOf(cid, h.address);
          const amount = sp(o.amount);
          if (o.kind === "mint" && c.status === ACTIVE && c.available >= amount) {
            await (await vault.mint(cid, h.address, amount, `op-${seed}`)).wait();
          } else if (o.kind === "minter" && o.c === 1 && c.status === ACTIVE && c.available >= sp(1)) {
            const [limit, issued, active] = await vault.getMinterConfig(cid, carol.address);
            if (active && limit - issued >= sp(1))
              await (await vaultAs(program, carol).mint(cid, h.address, sp(1), "")).wait();
          } else if (o.kind === "settle" && bal > 0n) {
            await (await vault.settle(h.address, brand.address, bal < amount ? bal : amount, cid, "")).wait();
          } else if (o.kind === "expire" && bal > 0n) {
            await (await vault.expire(h.address, bal < amount ? bal : amount, cid, "")).wait();
          } else if (o.kind === "transfer" && bal > 0n && o.h !== o.to) {
            await (await vault.transfer(cid, h.address, holders[o.to]!.address, bal < amount ? bal : amount)).wait();
          } else if (o.kind === "fund" && c.status !== CLOSED) {
            await (await vault.fundCampaign(cid, amount)).wait();
          } else if (o.kind === "toggle" && c.status !== CLOSED) {
            await (await (c.status === ACTIVE ? vault.pauseCampaign(cid) : vault.resumeCampaign(cid))).wait();
          }
        }
      };
      const check = async () => {
        const chain = await chainState(
          node.provider,
          program,
          campaigns,
          holders.map((w) => w.address),
        );
        const ledger = await ledgerComparable(db, "acme");
        assert.deepEqual(ledger.campaigns, chain.campaigns);
        assert.deepEqual(sortBalances(ledger.balances), sortBalances(chain.balances));
        const [limit, issued, active] = await vault.getMinterConfig(second, carol.address);
        const tables = await ledgerState(db, "acme");
        const m = tables.campaigns.find((x) => x.campaignId === second)!.minters;
        assert.deepEqual(m, [{ minter: carol.address, limit, issued, active }]);
        // The tables are what a fold of every stored event gives (nothing applied twice or missed).
        const fold = foldPsp(await pspEvents(db, "acme"));
        assert.deepEqual(tables.campaigns, fold.campaigns);
        assert.deepEqual(sortBalances(tables.balances), sortBalances(fold.balances));
        // SP: every holder the chain knows, with its balance (the PSPVault holds the budgets).
        const points = Points__factory.connect(program.points, node.provider);
        const spRows = (await spHoldersPage(db, "31337", "acme", undefined, 1000)).holders;
        for (const a of [brand.address, program.pspVault, ...holders.map((h) => h.address)]) {
          const onChain = await points.balanceOf(a);
          const row = spRows.find((r) => r.holder.toLowerCase() === a.toLowerCase());
          assert.equal(row ? BigInt(row.balance) : 0n, onChain, a);
        }
        const supply = spRows.reduce((s, r) => s + BigInt(r.balance), 0n);
        assert.equal(supply, await points.totalSupply());
      };

      const indexer = indexerOn(db, proxy.url, { range: 7 });
      t.after(() => indexer.stop());
      await run(11, 40);
      await indexer.catchUp("31337");
      await check();
      const snap = await node.snapshot();
      const snapBlock = await node.provider.getBlockNumber();
      await run(12, 15);
      await indexer.catchUp("31337");
      await check();
      const above = async (n: number) =>
        (await db.query("SELECT 1 FROM ledger_events WHERE block_number > $1", [n])).length;
      assert.ok((await above(snapBlock)) > 0, "the fork to be dropped has events in the ledger");
      await node.revert(snap);
      await run(13, 20);
      await indexer.catchUp("31337");
      await check();
      // Every stored event sits in a block the chain has now, under the same hash.
      const stored = await db.query<{ block_number: string; block_hash: string }>(
        "SELECT DISTINCT block_number::text AS block_number, block_hash FROM ledger_events WHERE block_number > $1",
        [snapBlock],
      );
      assert.ok(stored.length > 0);
      for (const r of stored) {
        assert.equal((await node.provider.getBlock(Number(r.block_number)))!.hash, r.block_hash);
      }
      // Each log once: no (block, index) twice and no tx whose log count differs from its receipt.
      const dup = await db.query<{ n: string }>(
        "SELECT count(*)::text AS n FROM (SELECT tx_hash, log_index FROM ledger_events GROUP BY 1, 2 HAVING count(*) > 1) d",
      );
      assert.equal(dup[0]!.n, "0");
    });
  });
}
