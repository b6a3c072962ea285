import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { parseUnits } from "ethers";
import { actors, deployProgram, devWallet, fundedCampaign, startNode, type DevNode } from "@points/testkit";
import type { ProgramRecord } from "@points/testkit";
import { Points__factory } from "@points/contracts";
import type { TestApi } from "./helpers/service.js";
import { brandBuysSp, ledgerApiAtHead, vaultAs } from "./helpers/ledger.js";

const sp = (n: number) => parseUnits(String(n), 18).toString();

interface Customer {
  holder: string;
  sp: string;
  psp: string;
  issued: string;
  settled: string;
  clawedBack: string;
}
interface Answer {
  program: string;
  chainId: string;
  blockNumber: number;
  customers: Customer[];
  nextCursor: string | null;
}

// GET /api/v1/ledger/customers: every customer's SP and pSP balances and pSP totals (issued,
// settled, clawed back), by address, after real issue, settle and expire transactions.
describe("ledger: customers route", () => {
  let node: DevNode;
  let api: TestApi;
  let program: ProgramRecord;
  let auth: Record<string, string>;
  let head: number;
  let expected: Customer[];

  before(async () => {
    node = await startNode();
    let usdc: string;
    ({ record: program, usdc } = await deployProgram(node.provider, "acme"));
    const { campaignId: launch } = await fundedCampaign(node.provider, program, usdc, "launch", 1000n);
    const { campaignId: summer } = await fundedCampaign(node.provider, program, usdc, "summer", 500n);
    const { brand, alice, bob, carol } = actors(node.provider);
    const dave = devWallet(6, node.provider);
    const vault = vaultAs(program, brand);
    const run = async (p: Promise<{ wait(): Promise<unknown> }>) => (await p).wait();
    await run(vault.mint(launch, alice.address, sp(7), ""));
    await run(vault.mint(summer, alice.address, sp(4), ""));
    await run(vault.mint(launch, bob.address, sp(3), ""));
    await run(vault.mint(launch, carol.address, sp(5), ""));
    await run(vault.mint(launch, dave.address, sp(1), ""));
    await run(vault.updateSettlementWhitelist(launch, alice.address, true));
    // Settled SP reaches alice only when she may receive SP (transfers are restricted).
    await run(Points__factory.connect(program.points, brand).addToTransferWhitelist(alice.address));
    await run(vault.settle(alice.address, alice.address, sp(2), launch, ""));
    await run(vault.expire(bob.address, sp(1), launch, ""));
    // Dave's pSP all clawed back: he holds nothing and is still a customer.
    await run(vault.expire(dave.address, sp(1), launch, ""));
    // The brand holds SP and was never issued pSP.
    await brandBuysSp(node.provider, program, usdc, 40n);
    ({ api, auth, head } = await ledgerApiAtHead(node.url, node.provider, program, "acme", "customers", 30_000));
    const row = (holder: string, c: Partial<Customer>): Customer => ({
      holder,
      sp: "0",
      psp: "0",
      issued: "0",
      settled: "0",
      clawedBack: "0",
      ...c,
    });
    expected = [
      row(alice.address, { sp: sp(2), psp: sp(9), issued: sp(11), settled: sp(2) }),
      row(bob.address, { psp: sp(2), issued: sp(3), clawedBack: sp(1) }),
      row(carol.address, { psp: sp(5), issued: sp(5) }),
      row(dave.address, { issued: sp(1), clawedBack: sp(1) }),
      row(brand.address, { sp: sp(40) }),
    ].sort((a, b) => (a.holder.toLowerCase() < b.holder.toLowerCase() ? -1 : 1));
  });
  after(async () => {
    await api?.close();
    await node?.stop();
  });

  const get = async (query = "") => {
    const res = await api.call("GET", `/api/v1/ledger/customers${query}`, undefined, auth);
    assert.equal(res.status, 200, query);
    return (res.body as { data: Answer }).data;
  };

  it("everyCustomer_balancesAndTotals_exactly_programContractsLeftOut", async () => {
    assert.deepEqual(await get(), {
      program: "acme",
      chainId: "31337",
      blockNumber: head,
      customers: expected,
      nextCursor: null,
    });
  });

  it("pages_byAddress_theCursorIsThePreviousPagesLastHolder", async () => {
    const first = await get("?limit=2");
    assert.deepEqual(first.customers, expected.slice(0, 2));
    assert.equal(first.nextCursor, expected[1]!.holder);
    const second = await get(`?limit=2&cursor=${first.nextCursor}`);
    assert.deepEqual(second.customers, expected.slice(2, 4));
    const third = await get(`?limit=2&cursor=${second.nextCursor}`);
    assert.deepEqual(third.customers, expected.slice(4));
    assert.equal(third.nextCursor, null);
  });

  it("filters_minimumSpBalance_andAddressPrefix_caseInsensitive", async () => {
    const { alice, brand } = actors(node.provider);
    const atLeast2 = await get(`?minBalance=${sp(2)}`);
    assert.deepEqual(
      atLeast2.customers.map((c) => c.holder),
      expected.filter((c) => c.holder === alice.address || c.holder === brand.address).map((c) => c.holder),
    );
    assert.deepEqual(
      (await get(`?minBalance=${BigInt(sp(2)) + 1n}`)).customers,
      expected.filter((c) => c.holder === brand.address),
    );
    const prefix = alice.address.slice(0, 5);
    const byPrefix = await get(`?prefix=${prefix.toUpperCase().replace("0X", "0x")}`);
    assert.deepEqual(
      byPrefix.customers,
      expected.filter((c) => c.holder.toLowerCase().startsWith(prefix.toLowerCase())),
    );
    assert.ok(byPrefix.customers.some((c) => c.holder === alice.address));
    assert.deepEqual((await get("?prefix=0x0000000000")).customers, []);
  });

  it("oddInput_badFilterOrCursor_is400InvalidInput", async () => {
    for (const q of ["minBalance=1.5", "minBalance=-1", "minBalance=01", "prefix=0xzz", "prefix=abc", "cursor=0x12"]) {
      const res = await api.call("GET", `/api/v1/ledger/customers?${q}`, undefined, auth);
      assert.equal(res.status, 400, q);
      assert.equal((res.body as { error: { code: string } }).error.code, "INVALID_INPUT", q);
    }
  });
});
