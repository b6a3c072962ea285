import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { parseUnits } from "ethers";
import { actors, deployProgram, fundedCampaign, startNode, type DevNode, type ProgramRecord } from "@points/testkit";
import { startApi, type TestApi } from "./helpers/service.js";
import { vaultAs } from "./helpers/ledger.js";

const sp = (n: number) => parseUnits(String(n), 18).toString();

// The ledger's read routes (API README, "Ledger"), answered from the index the in-process
// indexer keeps, each naming the block it is consistent with.
describe("ledger: read routes", () => {
  let node: DevNode;
  let api: TestApi;
  let program: ProgramRecord;
  let campaignId: string;
  let auth: Record<string, string>;
  let head: number;

  before(async () => {
    node = await startNode();
    let usdc: string;
    ({ record: program, usdc } = await deployProgram(node.provider, "acme"));
    ({ campaignId } = await fundedCampaign(node.provider, program, usdc, "launch", 1000n));
    const { brand, alice, bob, carol } = actors(node.provider);
    const vault = vaultAs(program, brand);
    await (await vault.mint(campaignId, alice.address, sp(7), "first")).wait();
    await (await vault.mint(campaignId, bob.address, sp(3), "")).wait();
    await (await vault.mint(campaignId, carol.address, sp(5), "")).wait();
    await (await vault.mint(campaignId, alice.address, sp(2), "second")).wait();
    await (await vault.setMinter(campaignId, carol.address, sp(40), true)).wait();
    head = await node.provider.getBlockNumber();
    api = await startApi(node.url, { LEDGER: "inline", LEDGER_CONFIRMATIONS: "0", LEDGER_POLL_MS: "20" });
    await api.service.ctx.programs.insert(program);
    auth = { authorization: `Bearer ${(await api.service.ctx.keys.create("ledger", ["read"])).key}` };
    const deadline = Date.now() + 30_000;
    for (;;) {
      const rows = await api.service.ctx.db.query<{ n: string }>(
        "SELECT synced_to::text AS n FROM ledger_programs WHERE program_id = 'acme'",
      );
      if (Number(rows[0]?.n ?? -1) >= head) break;
      if (Date.now() > deadline) throw new Error("the ledger did not reach the head");
      await sleep(20);
    }
  });
  after(async () => {
    await api?.close();
    await node?.stop();
  });

  const get = (path: string, headers = auth) => api.call("GET", path, undefined, headers);

  it("campaigns_answerBudgetAvailableOutstandingAdminsAndMinters_exactly_atTheIndexedBlock", async () => {
    const { brand, carol } = actors(node.provider);
    const res = await get("/api/v1/ledger/campaigns");
    assert.equal(res.status, 200);
    assert.deepEqual((res.body as { data: unknown }).data, {
      program: "acme",
      chainId: "31337",
      blockNumber: head,
      campaigns: [
        {
          campaignId,
          budget: sp(1000),
          available: sp(1000 - 17),
          outstanding: sp(17),
          status: "Active",
          creator: brand.address,
          metadata: "",
          admins: [brand.address],
          settlementWhitelist: [],
          transferWhitelist: [],
          minters: [{ minter: carol.address, limit: sp(40), issued: "0", active: true }],
        },
      ],
    });
  });

  it("balances_pageByAddress_withNextCursor_andTheSameBlock", async () => {
    const { alice, bob, carol } = actors(node.provider);
    const expected = [
      { holder: alice.address, balance: sp(9) },
      { holder: bob.address, balance: sp(3) },
      { holder: carol.address, balance: sp(5) },
    ].sort((a, b) => (a.holder.toLowerCase() < b.holder.toLowerCase() ? -1 : 1));
    const seen = [];
    let cursor: string | null = null;
    do {
      const res = await get(`/api/v1/ledger/campaigns/launch/balances?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      assert.equal(res.status, 200);
      const data = (res.body as { data: { holders: unknown[]; nextCursor: string | null; blockNumber: number } }).data;
      assert.equal(data.blockNumber, head);
      seen.push(...data.holders);
      cursor = data.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, expected);
  });

  it("holderHistory_isNewestFirst_withTxHashBlockAndTime_andPages", async () => {
    const { alice, brand } = actors(node.provider);
    const first = await get(`/api/v1/ledger/holders/${alice.address.toLowerCase()}/history?limit=1`);
    assert.equal(first.status, 200);
    type Page = { address: string; events: Record<string, unknown>[]; nextCursor: string | null };
    const p1 = (first.body as { data: Page }).data;
    assert.equal(p1.address, alice.address);
    assert.equal(p1.events.length, 1);
    const e1 = p1.events[0]!;
    assert.equal(e1.event, "PSPMinted");
    assert.deepEqual(e1.args, {
      campaignId,
      minter: brand.address,
      to: alice.address,
      amount: sp(2),
      metadata: "second",
    });
    const block = await node.provider.getBlock(e1.blockNumber as number);
    assert.equal(e1.time, new Date(block!.timestamp * 1000).toISOString());
    assert.equal(e1.campaignId, campaignId);
    assert.equal(e1.contract, "pspVault");
    assert.equal((await node.provider.getTransaction(e1.txHash as string))!.blockNumber, e1.blockNumber);
    assert.ok(p1.nextCursor);
    const second = await get(`/api/v1/ledger/holders/${alice.address}/history?limit=1&cursor=${p1.nextCursor}`);
    const p2 = (second.body as { data: Page }).data;
    assert.deepEqual(
      p2.events.map((e) => [e.event, (e.args as { metadata: string }).metadata]),
      [["PSPMinted", "first"]],
    );
  });

  it("oddInput_badCursorOrLimit_is400InvalidInput_unknownCampaign_is404", async () => {
    for (const q of ["cursor=%25%25", "cursor=12", "cursor=1.2.3", "limit=0", "limit=501", "limit=abc", "limit=01"]) {
      const res = await get(`/api/v1/ledger/holders/${actors(node.provider).alice.address}/history?${q}`);
      assert.equal(res.status, 400, q);
      assert.equal((res.body as { error: { code: string } }).error.code, "INVALID_INPUT", q);
    }
    const missing = await get("/api/v1/ledger/campaigns/nope/balances");
    assert.equal(missing.status, 404);
    assert.equal((missing.body as { error: { code: string } }).error.code, "NOT_FOUND");
  });

  it("auth_noKey_is401_aKeyWithoutReadScope_is403Forbidden", async () => {
    const none = await get("/api/v1/ledger/campaigns", {});
    assert.equal(none.status, 401);
    assert.equal((none.body as { error: { code: string } }).error.code, "UNAUTHORIZED");
    const { key } = await api.service.ctx.keys.create("builder", ["build"]);
    const res = await get("/api/v1/ledger/campaigns", { authorization: `Bearer ${key}` });
    assert.equal(res.status, 403);
    assert.deepEqual((res.body as { error: { code: string; details: unknown } }).error.code, "FORBIDDEN");
  });
});
