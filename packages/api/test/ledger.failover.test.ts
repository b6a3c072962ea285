import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseUnits } from "ethers";
import pino from "pino";
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
import { LedgerIndexer } from "../src/workers/ledger/indexer.js";
import { rpcPool } from "../src/core/chain/rpcPool.js";
import { TEST_LEDGER, vaultAs } from "./helpers/ledger.js";
import { memoryDb } from "./helpers/db.js";

const sp = (n: number) => parseUnits(String(n), 18);

/** A chain whose first endpoints are bad and whose last one answers (a fresh config: its own pool). */
const chainOf = (urls: string[]) => ({
  chainId: 31337,
  name: "Hardhat",
  rpcUrl: urls[0]!,
  rpcUrls: urls.slice(1),
  explorerUrl: null,
  testnet: true,
  blockTimeMs: 1000,
});

// The ledger indexer uses every RPC endpoint of a chain through the chain's endpoint pool
// (docs/architecture.md#the-ledger): failover, backoff, chain id checked per endpoint.
describe("ledger: indexer failover across a chain's RPC endpoints", () => {
  let node: DevNode;
  let db: Db;
  let program: ProgramRecord;
  let campaignId: string;
  let down: FaultProxy;
  let limited: FaultProxy;
  let wrong: FaultProxy;
  let good: FaultProxy;

  before(async () => {
    node = await startNode();
    db = await memoryDb();
    let usdc: string;
    ({ record: program, usdc } = await deployProgram(node.provider, "acme"));
    await new ProgramRegistry(db).insert(program);
    ({ campaignId } = await fundedCampaign(node.provider, program, usdc, "launch", 1000n));
    const { brand, alice } = actors(node.provider);
    await (await vaultAs(program, brand).mint(campaignId, alice.address, sp(7), "welcome")).wait();
    [down, limited, wrong, good] = await Promise.all([0, 1, 2, 3].map(() => startFaultProxy(node.url)));
    down.faults.down = true;
    limited.faults.tooManyRequests = 1_000_000;
    wrong.faults.chainId = 1;
  });
  after(async () => {
    for (const p of [down, limited, wrong, good]) await p?.close();
    await db?.close();
    await node?.stop();
  });

  const count = async (event: string) =>
    Number(
      (await db.query<{ n: string }>("SELECT count(*)::text AS n FROM ledger_events WHERE event = $1", [event]))[0]!.n,
    );

  it("oneEndpointDown_oneAnswering429_oneOfAnotherChain_theIndexerCatchesUpThroughTheHealthyOne", async (t) => {
    const chain = chainOf([down.url, limited.url, wrong.url, good.url]);
    const indexer = new LedgerIndexer(db, [chain], pino({ level: "silent" }), TEST_LEDGER);
    t.after(() => indexer.stop());
    await indexer.catchUp("31337");

    const head = await node.provider.getBlockNumber();
    assert.equal((await indexer.store.cursor("31337"))!.number, head);
    assert.equal(await count("CampaignCreated"), 1);
    assert.equal(await count("PSPMinted"), 1);
    const [minted] = await db.query<{ args: Record<string, string> }>(
      "SELECT args FROM ledger_events WHERE event = 'PSPMinted'",
    );
    assert.equal(minted!.args.amount, sp(7).toString());

    // The endpoint of another chain answered its chain id and nothing else; the logs came from the healthy one.
    assert.deepEqual([...new Set(wrong.methods)], ["eth_chainId"]);
    assert.ok(good.methods.includes("eth_getLogs"));
    assert.ok(!down.methods.includes("eth_getLogs"), "a dead endpoint receives nothing");
    const states = rpcPool(chain, TEST_LEDGER.rpcTimeoutMs)
      .view()
      .map((e) => e.state);
    assert.deepEqual(states, ["backoff", "backoff", "refused", "healthy"]);
  });

  it("theIndexerAndTheEngineOfAChain_shareOneHealthView", async (t) => {
    const chain = chainOf([wrong.url, good.url]);
    const pool = rpcPool(chain, TEST_LEDGER.rpcTimeoutMs);
    await pool.checkAll();
    assert.equal(pool.view()[0]!.state, "refused");
    const before = wrong.methods.length;
    const indexer = new LedgerIndexer(db, [chain], pino({ level: "silent" }), TEST_LEDGER);
    t.after(() => indexer.stop());
    await indexer.catchUp("31337");
    assert.equal(wrong.methods.length, before, "a refused endpoint is not asked again");
    assert.equal((await indexer.store.cursor("31337"))!.number, await node.provider.getBlockNumber());
  });

  it("onlyAnEndpointOfAnotherChainLeft_theIndexerStoresNothing_andFailsClearly", async (t) => {
    const chain = chainOf([down.url, wrong.url]);
    const fresh = await memoryDb();
    t.after(() => fresh.close());
    await new ProgramRegistry(fresh).insert(program);
    const indexer = new LedgerIndexer(fresh, [chain], pino({ level: "silent" }), {
      ...TEST_LEDGER,
      retry: { retries: 0, minMs: 5, maxMs: 10 },
    });
    t.after(() => indexer.stop());
    await assert.rejects(indexer.catchUp("31337"));
    const [row] = await fresh.query<{ n: string }>("SELECT count(*)::text AS n FROM ledger_events");
    assert.equal(row!.n, "0");
    assert.ok(!(await indexer.store.cursor("31337")), "no cursor: nothing was read");
    assert.deepEqual(
      rpcPool(chain, TEST_LEDGER.rpcTimeoutMs)
        .view()
        .map((e) => e.state),
      ["backoff", "refused"],
    );
  });
});
