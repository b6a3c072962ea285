import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseUnits } from "ethers";
import { actors, deployProgram, fundedCampaign, startNode, type DevNode, type ProgramRecord } from "@points/testkit";
import type { TestApi } from "./helpers/service.js";
import { brandBuysSp, ledgerApiAtHead, vaultAs } from "./helpers/ledger.js";
import { Factory__factory, Points__factory } from "@points/contracts";

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
  let usdc: string;

  before(async () => {
    node = await startNode();
    ({ record: program, usdc } = await deployProgram(node.provider, "acme"));
    ({ campaignId } = await fundedCampaign(node.provider, program, usdc, "launch", 1000n));
    const { brand, alice, bob, carol } = actors(node.provider);
    const vault = vaultAs(program, brand);
    await (await vault.mint(campaignId, alice.address, sp(7), "first")).wait();
    await (await vault.mint(campaignId, bob.address, sp(3), "")).wait();
    await (await vault.mint(campaignId, carol.address, sp(5), "")).wait();
    await (await vault.mint(campaignId, alice.address, sp(2), "second")).wait();
    await (await vault.setMinter(campaignId, carol.address, sp(40), true)).wait();
    // Roles: one granted and revoked, one granted.
    const issuing = await vault.ISSUING_ADMIN_ROLE();
    await (await vault.grantRole(issuing, carol.address)).wait();
    await (await vault.revokeRole(issuing, carol.address)).wait();
    await (await vault.grantRole(issuing, bob.address)).wait();
    // Allowlists: alice on the mint list and off again, bob on the redeem list.
    const factory = Factory__factory.connect(program.factory, brand);
    await (await factory.addToMintWhitelist(alice.address)).wait();
    await (await factory.removeFromMintWhitelist(alice.address)).wait();
    await (await factory.addToRedeemWhitelist(brand.address)).wait();
    // Redemptions: 1 cancelled, 2 rejected, 3 finalized by the executor, 4 pending (delay 1 h).
    await brandBuysSp(node.provider, program, usdc, 40n);
    await (await Points__factory.connect(program.points, brand).approve(program.factory, sp(40))).wait();
    for (let i = 0; i < 4; i++) await (await factory.requestRedeem(usdc, brand.address, sp(10), false)).wait();
    const { executor } = actors(node.provider);
    await (await factory.cancelRedeem(1)).wait();
    await (await Factory__factory.connect(program.factory, executor).rejectRedeem(2)).wait();
    await (await Factory__factory.connect(program.factory, executor).finalizeRedeem(3)).wait();
    ({ api, auth, head } = await ledgerApiAtHead(node.url, node.provider, program, "acme", "ledger", 30_000));
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
    type Page = { address: string; events: Record<string, any>[]; nextCursor: string | null };
    const first = await get(`/api/v1/ledger/holders/${alice.address.toLowerCase()}/history?limit=3`);
    assert.equal(first.status, 200);
    const p1 = (first.body as { data: Page }).data;
    assert.equal(p1.address, alice.address);
    assert.deepEqual(
      p1.events.map((e) => [e.event, e.args.whitelisted ?? e.args.metadata]),
      [
        ["MintWhitelistUpdated", false],
        ["MintWhitelistUpdated", true],
        ["PSPMinted", "second"],
      ],
    );
    const minted = p1.events[2]!;
    assert.deepEqual(minted.args, {
      campaignId,
      minter: brand.address,
      to: alice.address,
      amount: sp(2),
      metadata: "second",
    });
    const block = await node.provider.getBlock(minted.blockNumber as number);
    assert.equal(minted.time, new Date(block!.timestamp * 1000).toISOString());
    assert.equal(minted.campaignId, campaignId);
    assert.equal(minted.contract, "pspVault");
    assert.equal((await node.provider.getTransaction(minted.txHash as string))!.blockNumber, minted.blockNumber);
    assert.equal(p1.nextCursor, `${minted.blockNumber}.${minted.logIndex}`);
    const second = await get(`/api/v1/ledger/holders/${alice.address}/history?limit=3&cursor=${p1.nextCursor}`);
    const p2 = (second.body as { data: Page }).data;
    assert.deepEqual(
      p2.events.map((e) => [e.event, e.args.metadata]),
      [["PSPMinted", "first"]],
    );
    assert.equal(p2.nextCursor, null);
  });

  it("holderHistory_withMetadata_answersOnlyTheEventsCarryingExactlyThatText", async () => {
    const { alice, bob } = actors(node.provider);
    type Page = { events: Record<string, any>[]; nextCursor: string | null };
    const page = async (who: string, q: string) => {
      const res = await get(`/api/v1/ledger/holders/${who}/history?${q}`);
      assert.equal(res.status, 200, q);
      return (res.body as { data: Page }).data;
    };
    const first = await page(alice.address, "metadata=first");
    assert.deepEqual(
      first.events.map((e) => [e.event, e.args.to, e.args.amount, e.args.metadata]),
      [["PSPMinted", alice.address, sp(7), "first"]],
    );
    assert.equal(first.nextCursor, null);
    // Exact text: neither a prefix nor another holder's event matches.
    assert.deepEqual((await page(alice.address, "metadata=firs")).events, []);
    assert.deepEqual((await page(bob.address, "metadata=first")).events, []);
    // A page holds matches only: one match and limit 1 is a last page.
    const paged = await page(alice.address, "metadata=second&limit=1");
    assert.deepEqual(
      paged.events.map((e) => e.args.metadata),
      ["second"],
    );
    assert.equal(paged.nextCursor, null);
    // Empty or unsafe text is refused, not read as "no filter".
    for (const q of ["metadata=", "metadata=%00"]) {
      const res = await get(`/api/v1/ledger/holders/${alice.address}/history?${q}`);
      assert.equal(res.status, 400, q);
      assert.equal((res.body as { error: { code: string } }).error.code, "INVALID_INPUT", q);
    }
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

  type Data<T> = { data: T & { blockNumber: number } };

  it("roles_nowAndAsHistory_namesRolesHoldersAndWhoGrantedThem", async () => {
    const { brand, bob, carol, executor } = actors(node.provider);
    const now = ((await get("/api/v1/ledger/roles")).body as Data<{ contracts: any[] }>).data;
    assert.equal(now.blockNumber, head);
    const psp = now.contracts.find((c) => c.contract === "pspVault");
    assert.equal(psp.address, program.pspVault);
    // The brand holds every PSPVault role from birth.
    assert.deepEqual(
      psp.roles.find((r: any) => r.role === "ISSUING_ADMIN_ROLE").holders,
      [brand.address, bob.address].sort(),
    );
    const factory = now.contracts.find((c) => c.contract === "factory");
    assert.deepEqual(factory.roles.find((r: any) => r.role === "EXECUTOR_ROLE").holders, [executor.address]);
    assert.deepEqual(factory.roles.find((r: any) => r.role === "DEFAULT_ADMIN_ROLE").holders, [brand.address]);

    const history = ((await get("/api/v1/ledger/roles/history?limit=3")).body as Data<{ events: any[] }>).data;
    assert.deepEqual(
      history.events.map((e) => [e.event, e.args.account, e.args.sender, e.address]),
      [
        ["RoleGranted", bob.address, brand.address, program.pspVault],
        ["RoleRevoked", carol.address, brand.address, program.pspVault],
        ["RoleGranted", carol.address, brand.address, program.pspVault],
      ],
    );
  });

  it("allowlists_listTheMembersNow", async () => {
    const { brand } = actors(node.provider);
    const data = ((await get("/api/v1/ledger/allowlists")).body as Data<Record<string, string[]>>).data;
    assert.deepEqual(
      { mint: data.mint, redeem: data.redeem, transfer: data.transfer },
      // The Factory and the PSPVault are on the transfer allowlist from birth.
      {
        mint: [brand.address],
        redeem: [brand.address],
        transfer: [brand.address, program.factory, program.pspVault].sort(),
      },
    );
  });

  it("spHolders_areTheTokensHolders_withExactBalances", async () => {
    const data = ((await get("/api/v1/ledger/sp-holders")).body as Data<{ holders: any[] }>).data;
    const points = Points__factory.connect(program.points, node.provider);
    assert.ok(data.holders.length >= 2);
    for (const h of data.holders) assert.equal(h.balance, (await points.balanceOf(h.holder)).toString(), h.holder);
    const total = data.holders.reduce((t, h) => t + BigInt(h.balance), 0n);
    assert.equal(total, await points.totalSupply());
  });

  it("redemptions_withStatusFilter_newestFirst", async () => {
    const { brand } = actors(node.provider);
    const all = ((await get("/api/v1/ledger/redemptions")).body as Data<{ requests: any[] }>).data;
    assert.deepEqual(
      all.requests.map((r) => [r.requestId, r.status]),
      [
        ["4", "pending"],
        ["3", "finalized"],
        ["2", "rejected"],
        ["1", "cancelled"],
      ],
    );
    const four = all.requests[0];
    assert.deepEqual(
      [four.requester, four.asset, four.to, four.amount, four.expectedBasketMode, four.closedAt],
      [brand.address, usdc, brand.address, sp(10), false, null],
    );
    const pending = ((await get("/api/v1/ledger/redemptions?status=pending")).body as Data<{ requests: any[] }>).data;
    assert.deepEqual(
      pending.requests.map((r) => r.requestId),
      ["4"],
    );
    const paged = (
      (await get("/api/v1/ledger/redemptions?limit=2&cursor=3")).body as Data<{
        requests: any[];
        nextCursor: string | null;
      }>
    ).data;
    assert.deepEqual(
      paged.requests.map((r) => r.requestId),
      ["2", "1"],
    );
    assert.equal(paged.nextCursor, null);
    const bad = await get("/api/v1/ledger/redemptions?status=lost");
    assert.equal(bad.status, 400);
  });

  it("campaignLedger_everyEventOfTheCampaign_newestFirst_inPages", async () => {
    const { alice, bob, carol } = actors(node.provider);
    type Page = { events: Record<string, any>[]; nextCursor: string | null; campaignId: unknown };
    const seen: Record<string, any>[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(`/api/v1/ledger/campaigns/launch/ledger?limit=3${cursor ? `&cursor=${cursor}` : ""}`);
      assert.equal(res.status, 200);
      const data = (res.body as { data: Page }).data;
      assert.deepEqual(data.campaignId, { value: campaignId, source: "label", label: "launch" });
      seen.push(...data.events);
      cursor = data.nextCursor;
    } while (cursor);
    assert.deepEqual(
      seen.map((e) => [e.event, e.args.to ?? e.args.minter ?? null, e.args.amount ?? null]),
      [
        ["MinterConfigured", carol.address, null],
        ["PSPMinted", alice.address, sp(2)],
        ["PSPMinted", carol.address, sp(5)],
        ["PSPMinted", bob.address, sp(3)],
        ["PSPMinted", alice.address, sp(7)],
        ["CampaignFunded", null, sp(1000)],
        ["CampaignAdminUpdated", null, null],
        ["CampaignCreated", null, null],
      ],
    );
    assert.ok(seen.every((e) => e.campaignId === campaignId && e.contract === "pspVault"));
  });

  it("tenants_aKeyOfAnotherTenant_gets404OnEveryRoute_theOwnerAndAnAdminKeyRead", async () => {
    const { ctx } = api.service;
    const owner = await ctx.keys.create("tenant-a", ["read"]);
    const other = await ctx.keys.create("tenant-b", ["read", "build", "deploy"]);
    const admin = await ctx.keys.create("operator", ["admin"]);
    // The row an onboarding deploy leaves: the program now belongs to the task's owner.
    await ctx.db.query(
      `INSERT INTO onboarding_tasks (id, owner, request_hash, request, brand, chain_id, status, program_id)
       VALUES ('tenant-task', $1, 'h', '{}', 'acme', '31337', 'succeeded', 'acme')`,
      [owner.info.id],
    );
    try {
      const paths = [
        "/api/v1/ledger/campaigns",
        "/api/v1/ledger/campaigns/launch/balances",
        "/api/v1/ledger/campaigns/launch/ledger",
        `/api/v1/ledger/holders/${actors(node.provider).alice.address}/history`,
        "/api/v1/ledger/roles",
        "/api/v1/ledger/roles/history",
        "/api/v1/ledger/allowlists",
        "/api/v1/ledger/sp-holders",
        "/api/v1/ledger/customers",
        "/api/v1/ledger/redemptions",
      ];
      const unknown = await get(`/api/v1/ledger/campaigns?program=nobody`, { authorization: `Bearer ${other.key}` });
      for (const path of paths) {
        for (const ref of ["", "?program=acme", `?program=${program.factory}`]) {
          const url = `${path}${ref}`;
          const refused = await get(url, { authorization: `Bearer ${other.key}` });
          assert.equal(refused.status, 404, url);
          const error = (refused.body as { error: { code: string; message: string } }).error;
          assert.equal(error.code, "NOT_FOUND", url);
          // Nothing tells another tenant's program from one that does not exist.
          if (ref === "?program=acme") {
            assert.equal(
              error.message,
              (unknown.body as { error: { message: string } }).error.message.replace("nobody", "acme"),
            );
          }
          assert.ok(!JSON.stringify(refused.body).includes(program.pspVault), url);
          for (const key of [owner.key, admin.key]) {
            const res = await get(url, { authorization: `Bearer ${key}` });
            assert.equal(res.status, 200, url);
            assert.equal((res.body as Data<{ program: string }>).data.program, "acme", url);
          }
        }
      }
    } finally {
      await ctx.db.query("DELETE FROM onboarding_tasks WHERE id = 'tenant-task'");
    }
  });
});
