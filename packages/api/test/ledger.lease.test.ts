import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { parseUnits } from "ethers";
import { actors, deployProgram, fundedCampaign, startNode, type DevNode, type ProgramRecord } from "@points/testkit";
import { ProgramRegistry, migrate, openDb, type Db } from "../src/index.js";
import { LeaseLost } from "../src/core/ledger/store.js";
import { createScratchDatabase, type ScratchDatabase } from "./helpers/db.js";
import { startRpcProxy, type RpcProxy } from "./helpers/rpcProxy.js";
import { indexerOn, vaultAs } from "./helpers/ledger.js";
import { startWorkerProcess } from "./helpers/workerProcess.js";

async function until(what: string, check: () => Promise<boolean>, ms = 20_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

// Two indexers on one PostgreSQL (docs/architecture.md#the-ledger): one indexes a chain, the
// other stands by and takes over when the lease expires.
describe("ledger: lease on PostgreSQL", () => {
  let node: DevNode;
  let scratch: ScratchDatabase;
  let dbA: Db;
  let dbB: Db;
  let proxies: RpcProxy[];
  let program: ProgramRecord;
  let campaignId: string;

  before(async () => {
    node = await startNode();
    scratch = await createScratchDatabase();
    dbA = await openDb({ databaseUrl: scratch.url, dataDir: "unused" });
    dbB = await openDb({ databaseUrl: scratch.url, dataDir: "unused" });
    await migrate(dbA);
    let usdc: string;
    ({ record: program, usdc } = await deployProgram(node.provider, "acme"));
    await new ProgramRegistry(dbA).insert(program);
    ({ campaignId } = await fundedCampaign(node.provider, program, usdc));
    proxies = [await startRpcProxy(node.url), await startRpcProxy(node.url)];
  });
  after(async () => {
    await Promise.all((proxies ?? []).map((p) => p.close()));
    await dbA?.close();
    await dbB?.close();
    await scratch?.drop();
    await node?.stop();
  });

  const cursorAt = async (db: Db) =>
    Number((await db.query<{ n: string }>("SELECT block_number::text AS n FROM ledger_cursors"))[0]?.n ?? -1);
  const getLogsOn = (p: RpcProxy) => p.methods().filter((m) => m === "eth_getLogs").length;

  it("twoIndexers_oneIndexes_theOtherTakesOverWhenTheLeaseExpires_andNoLogIsStoredTwice", async (t) => {
    // Long leases while both are alive, so a loaded machine pausing the leader is no takeover; the takeover below
    // comes from the leader's lease row being set to expire soon.
    const a = indexerOn(dbA, proxies[0]!.url, { leaseMs: 15_000, pollMs: 20, range: 4 });
    const b = indexerOn(dbB, proxies[1]!.url, { leaseMs: 15_000, pollMs: 20, range: 4 });
    t.after(() => Promise.all([a.stop(), b.stop()]));
    a.start();
    b.start();
    const head = await node.provider.getBlockNumber();
    await until("the ledger reaches the head", async () => (await cursorAt(dbA)) === head);
    const [onA, onB] = proxies.map(getLogsOn);
    assert.ok((onA === 0) !== (onB === 0), `exactly one indexer read logs: ${onA} and ${onB}`);
    const [leader, follower] = onA > 0 ? [a, b] : [b, a];
    const followerProxy = onA > 0 ? proxies[1]! : proxies[0]!;
    const [lease] = await dbA.query<{ owner: string }>("SELECT owner FROM ledger_leases");
    assert.equal(lease!.owner, leader.id);

    // The leader goes away without a word (its lease is left to expire).
    await leader.stop();
    await dbA.query(
      "INSERT INTO ledger_leases (chain_id, owner, expires_at) VALUES ('31337', $1, now() + interval '400 milliseconds') ON CONFLICT (chain_id) DO UPDATE SET owner = $1, expires_at = EXCLUDED.expires_at",
      [leader.id],
    );
    const { brand, alice } = actors(node.provider);
    const receipt = await (
      await vaultAs(program, brand).mint(campaignId, alice.address, parseUnits("5", 18), "")
    ).wait();
    await until("the follower indexes the new block", async () => (await cursorAt(dbA)) >= receipt!.blockNumber);
    assert.ok(getLogsOn(followerProxy) > 0);
    const [now] = await dbA.query<{ owner: string }>("SELECT owner FROM ledger_leases");
    assert.equal(now!.owner, follower.id);
    const dup = await dbA.query("SELECT tx_hash, log_index FROM ledger_events GROUP BY 1, 2 HAVING count(*) > 1");
    assert.deepEqual(dup, []);
    const minted = await dbA.query("SELECT 1 FROM ledger_events WHERE event = 'PSPMinted' AND tx_hash = $1", [
      receipt!.hash,
    ]);
    assert.equal(minted.length, 1);
  });

  it("commit_afterAnotherInstanceTookTheLease_isLeaseLost_andWritesNothing", async () => {
    const a = indexerOn(dbA, proxies[0]!.url);
    assert.equal(await a.store.lease("999", "first", 60_000), true);
    assert.equal(await a.store.lease("999", "second", 60_000), false, "a live lease is not taken");
    await dbA.query("UPDATE ledger_leases SET owner = 'second' WHERE chain_id = '999'");
    const commit = a.store.commit("999", "first", 60_000, {
      events: [],
      blocks: [{ number: 1, hash: "0x" + "11".repeat(32), time: 1 }],
      discovered: [],
      programIds: [],
      to: { number: 1, hash: "0x" + "11".repeat(32) },
      cursorFrom: null,
    });
    await assert.rejects(commit, LeaseLost);
    assert.deepEqual(await dbA.query("SELECT 1 FROM ledger_blocks WHERE chain_id = '999'"), []);
    await a.stop();
  });

  it("pointsApiIndexer_command_indexesOnItsOwn_andGivesTheLeaseBackOnSigterm", async (t) => {
    await dbA.query("DELETE FROM ledger_leases");
    const proc = startWorkerProcess(
      {
        DATABASE_URL: scratch.url,
        CHAINS: JSON.stringify([{ chainId: 31337, name: "Hardhat", rpcUrl: node.url }]),
        LEDGER_CONFIRMATIONS: "0",
        LEDGER_POLL_MS: "50",
      },
      "indexer",
    );
    t.after(() => proc.kill("SIGKILL"));
    const { brand, bob } = actors(node.provider);
    const receipt = await (
      await vaultAs(program, brand).mint(campaignId, bob.address, parseUnits("4", 18), "cli")
    ).wait();
    await until("the indexer process indexes the mint", async () => {
      const rows = await dbA.query("SELECT 1 FROM ledger_events WHERE tx_hash = $1", [receipt!.hash]);
      return rows.length === 1;
    });
    const [lease] = await dbA.query<{ owner: string }>("SELECT owner FROM ledger_leases");
    assert.match(lease!.owner, /^ledger-/);
    assert.match(proc.output(), /ledger indexer started/);
    await proc.kill("SIGTERM");
    assert.equal(proc.child.exitCode, 0, proc.output());
    assert.deepEqual(await dbA.query("SELECT owner FROM ledger_leases"), [], "the lease is given back");
  });
});
