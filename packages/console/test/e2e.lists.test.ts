import { after, before, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { id as labelHash, parseUnits, type Wallet } from "ethers";
import { parse } from "csv-parse/sync";
import type { Page } from "playwright-core";
import { PSPVault__factory, Points__factory } from "@points/contracts";
import * as pointsApi from "@points/api";
import { createClient } from "@points/sdk";
import {
  deployProgram,
  devWallet,
  fundedCampaign,
  startApi,
  startNode,
  type DevNode,
  type TestApi,
} from "@points/testkit";
import { launch, screenshot, watchProblems, type PageProblem } from "./helpers/browser.js";
import { steps } from "./helpers/steps.js";
import { injectWallet } from "./helpers/wallet.js";
import { signIn } from "./helpers/flow.js";
import { auditPage } from "./helpers/audit.js";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/index.html");
const SP = (n: string) => parseUnits(n, 18);
const SPRING = labelHash("spring");

let page: Page;
const it = steps(() => screenshot(page, "customer-list-failure"));

/** The visible rows of the customer list: the full address, then each amount as rendered. */
async function listRows(page: Page) {
  const out: string[][] = [];
  for (const row of await page.getByTestId("customer-list-row").all()) {
    const cells = row.locator("td");
    const address = await cells.nth(0).locator(".sr-only").first().innerText();
    const amounts: string[] = [];
    for (let i = 1; i < 6; i++) amounts.push((await cells.nth(i).innerText()).trim());
    out.push([address.trim(), ...amounts]);
  }
  return out;
}

/** Applies the list's filter and waits for the rows it keeps. */
async function filter(page: Page, prefix: string, min: string) {
  await page.getByLabel("Address starts with").fill(prefix);
  await page.getByLabel("Minimum ACME balance").fill(min);
  await page.getByRole("button", { name: "Filter", exact: true }).click();
}

// Issue, settle and claw back pSP through the SDK (built by the API, signed by the brand's key),
// then read the lists: customers (exact amounts in ACME and pSP, its filter and its CSV in points),
// campaigns by label with budget, available, outstanding and status, and the delegated minters.
describe("console e2e: the customer, campaign and minter lists in headless Chromium", () => {
  let node: DevNode;
  let api: TestApi<pointsApi.Service>;
  let closeBrowser: () => Promise<void>;
  let problems: PageProblem[];
  let brand: Wallet, alice: Wallet, bob: Wallet, carol: Wallet, outsider: Wallet;
  let owner: string;

  before(async () => {
    assert.ok(existsSync(DIST), "build the console first: pnpm --filter @points/console build");
    node = await startNode();
    [brand, alice, bob, carol, outsider] = [1, 2, 3, 4, 5].map((i) => devWallet(i, node.provider));
    const acme = await deployProgram(node.provider, "acme");
    await fundedCampaign(node.provider, acme.record, acme.usdc, "spring", 100n, JSON.stringify({ label: "spring" }));
    const vault = PSPVault__factory.connect(acme.record.pspVault, brand);
    await (await vault.updateSettlementWhitelist(SPRING, alice, true)).wait();
    await (await Points__factory.connect(acme.record.points, brand).addToTransferWhitelist(alice)).wait();
    // Carol issues as a delegated minter; an inactive minter; a second campaign, paused.
    await (await vault.setMinter(SPRING, carol, SP("10"), true)).wait();
    await (await vault.setMinter(SPRING, outsider, SP("5"), false)).wait();
    await fundedCampaign(node.provider, acme.record, acme.usdc, "autumn", 50n, JSON.stringify({ label: "autumn" }));
    await (await vault.pauseCampaign(labelHash("autumn"))).wait();
    api = await startApi(pointsApi, node.url, { DEV_MAILBOX: "1", LEDGER_CONFIRMATIONS: "0", LEDGER_POLL_MS: "100" });
    await api.service.ctx.programs.insert(acme.record);
    owner = (await pointsApi.createDevProgramAccount(api.service.ctx, "acme", brand.address)).email;
    const { key } = await api.service.ctx.keys.create("operations");
    const sdk = createClient({ baseUrl: api.url, apiKey: key, program: "acme" });
    const issuer = sdk.issuer(brand, { salt: "customer-list-e2e-salt" });
    await issuer.issue({ orderRef: "A-1", campaignId: "spring", to: alice.address, amount: SP("30.5") });
    await issuer.issue({ orderRef: "B-1", campaignId: "spring", to: bob.address, amount: SP("7") });
    await issuer.settle({
      orderRef: "A-1",
      campaignId: "spring",
      holder: alice.address,
      receiver: alice.address,
      amount: SP("12.25"),
    });
    await sdk
      .issuer(carol, { salt: "customer-list-e2e-salt" })
      .issue({ orderRef: "B-2", campaignId: "spring", to: bob.address, amount: SP("4") });
    await issuer.clawback({ orderRef: "B-1", campaignId: "spring", holder: bob.address, amount: SP("2") });
    const onChain = PSPVault__factory.connect(acme.record.pspVault, node.provider);
    assert.equal(await onChain.balanceOf(SPRING, alice.address), SP("18.25"));
    assert.equal(await onChain.balanceOf(SPRING, bob.address), SP("9"));
    const b = await launch({ width: 1440, height: 900 });
    closeBrowser = b.close;
    page = b.context.pages()[0] ?? (await b.context.newPage());
    page.setDefaultTimeout(30_000);
    problems = watchProblems(page);
    await injectWallet(page, node.provider, brand);
  });

  after(async () => {
    await closeBrowser?.();
    await api?.close();
    await node?.stop();
  });

  const ALICE = () => [alice.address, "12.25 ACME", "18.25 pSP", "30.5 pSP", "12.25 pSP", "0 pSP"];
  const BOB = () => [bob.address, "0 ACME", "9 pSP", "11 pSP", "0 pSP", "2 pSP"];

  it("customersTab_listsEveryCustomer_withExactAmountsInPoints", async () => {
    await page.goto(`${api.url}/console/`);
    await signIn(page, api.url, owner);
    await page.getByRole("link", { name: "Customers", exact: true }).click();
    await page.waitForURL(`${api.url}/console/program/customer`);
    await page.getByRole("button", { name: "Connect wallet" }).click();
    const table = page.getByRole("table", { name: "Customers" });
    await table.waitFor();
    // The brand funded the campaign with all its SP and the vaults are the program's own: two customers.
    await page.getByText("From the ledger, as of block").waitFor();
    assert.deepEqual(await listRows(page), [ALICE(), BOB()]);
    assert.deepEqual(await table.locator("thead th").allInnerTexts(), [
      "Customer",
      "ACME",
      "pSP",
      "Issued",
      "Settled",
      "Clawed back",
    ]);
    assert.equal(await page.getByRole("button", { name: "Next customers" }).isDisabled(), true);
    await screenshot(page, "customer-list");
    await auditPage(page, "dashboard-customer-list");
  });

  it("filter_byAddressPrefix_andMinimumBalance_inPoints_andAMistakeAtItsField", async () => {
    await filter(page, bob.address.slice(0, 6), "");
    await page.getByTestId("customer-list-row").filter({ hasText: "11 pSP" }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="customer-list-row"]').length === 1);
    assert.deepEqual(await listRows(page), [BOB()]);
    await filter(page, "", "12.25");
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[data-testid="customer-list-row"]').length === 1 &&
        document.querySelector('[data-testid="customer-list-row"]')!.textContent!.includes("12.25 ACME"),
    );
    assert.deepEqual(await listRows(page), [ALICE()]);
    await filter(page, "", "12.26");
    await page.getByText("No customer matches.").waitFor();
    await filter(page, "0xzz", "1,5");
    await page.getByText("An address starts with 0x and up to 40 hex digits (0-9, a-f).").waitFor();
    await page.getByText("Type a number of points, like 12 or 12.5.").waitFor();
    assert.equal(await page.getByLabel("Address starts with").getAttribute("aria-invalid"), "true");
    await auditPage(page, "dashboard-customer-list-mistake");
    await filter(page, "", "");
    await page.waitForFunction(() => document.querySelectorAll('[data-testid="customer-list-row"]').length === 2);
  });

  it("csv_holdsEveryCustomer_inPointsNotSmallestUnits", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    assert.equal(download.suggestedFilename(), "customers.csv");
    const rows = parse(readFileSync((await download.path())!, "utf8")) as string[][];
    assert.deepEqual(rows, [
      ["address", "ACME", "pSP", "issued", "settled", "clawed back"],
      [alice.address, "12.25", "18.25", "30.5", "12.25", "0"],
      [bob.address, "0", "9", "11", "0", "2"],
    ]);
  });

  it("aRow_opensTheCustomersPage", async () => {
    await page.getByRole("link", { name: `Open customer ${bob.address}` }).click();
    await page.waitForURL(`${api.url}/console/program/customer/${bob.address}`);
    await page.getByTestId("customer-psp-row").filter({ hasText: "9 pSP" }).waitFor();
  });

  /** The rendered cells of each row of a table's body. */
  const cellsOf = async (testId: string) => {
    const out: string[][] = [];
    for (const row of await page.getByTestId(testId).all()) {
      out.push((await row.locator("td").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim()));
    }
    return out;
  };

  /** Clicks a CSV button and parses the file it saves. */
  const csvOf = async (button: string, name: string) => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: button }).click(),
    ]);
    assert.equal(download.suggestedFilename(), name);
    return parse(readFileSync((await download.path())!, "utf8")) as string[][];
  };

  it("campaignsTab_listsBudgetAvailableOutstandingAndStatus_byLabel_withACsvInPoints", async () => {
    await page.getByRole("link", { name: "Campaigns", exact: true }).click();
    await page.waitForURL(`${api.url}/console/program/campaigns`);
    await page.getByRole("table", { name: "Campaigns" }).waitFor();
    // Spring: 100 funded; 30.5 + 7 + 4 issued, 2 clawed back while open: 60.5 left; 41.5 - 12.25 - 2 outstanding.
    assert.deepEqual(await cellsOf("campaign-row"), [
      ["spring", "100 ACME", "60.5 ACME", "27.25 pSP", "Active"],
      ["autumn", "50 ACME", "50 ACME", "0 pSP", "Paused"],
    ]);
    assert.deepEqual(await csvOf("Download campaigns CSV", "campaigns.csv"), [
      ["campaign", "campaignId", "budget (ACME)", "available (ACME)", "outstanding (pSP)", "status"],
      ["spring", SPRING, "100", "60.5", "27.25", "Active"],
      ["autumn", labelHash("autumn"), "50", "50", "0", "Paused"],
    ]);
  });

  it("delegatedMinters_acrossTheProgram_limitIssuedAndStatus_withACsvInPoints", async () => {
    // The minter cell shows the short address and holds the whole one for screen readers.
    const who = (cell: string) =>
      cell.includes(carol.address) ? "carol" : cell.includes(outsider.address) ? "outsider" : cell;
    assert.deepEqual(
      (await cellsOf("minter-row")).map((r) => [r[0], who(r[1]!), ...r.slice(2)]),
      [
        ["spring", "carol", "10 pSP", "4 pSP", "Active"],
        ["spring", "outsider", "5 pSP", "0 pSP", "Inactive"],
      ],
    );
    assert.deepEqual(await csvOf("Download minters CSV", "minters.csv"), [
      ["campaign", "campaignId", "minter", "limit (pSP)", "issued (pSP)", "status"],
      ["spring", SPRING, carol.address, "10", "4", "Active"],
      ["spring", SPRING, outsider.address, "5", "0", "Inactive"],
    ]);
    await screenshot(page, "campaign-lists");
    await auditPage(page, "dashboard-campaign-lists");
  });

  it("campaignLedger_namesEventsInWords_withHolderAndMinter_andACsvInPoints", async () => {
    await page.goto(`${api.url}/console/program/campaigns/${SPRING}/ledger`);
    await page.getByTestId("ledger-row").first().waitFor();
    const people: [string, Wallet][] = [
      ["alice", alice],
      ["bob", bob],
      ["carol", carol],
      ["outsider", outsider],
      ["brand", brand],
    ];
    const who = (cell: string) => people.find(([, w]) => cell.includes(w.address))?.[0] ?? cell;
    const rows: string[][] = [];
    for (const row of (await page.getByTestId("ledger-row").all()).slice(0, 7)) {
      const cell = (label: string) => row.locator(`td[data-label="${label}"]`);
      rows.push([
        (await cell("Event").locator(":scope > span").first().innerText()).split("\n")[0]!.trim(),
        who((await cell("Holder").innerText()).trim()),
        who((await cell("Minter").innerText()).trim()),
        (await cell("Amount").innerText()).trim(),
      ]);
    }
    // Newest first: the clawback, carol's issue, the settlement, the brand's two issues, the minters.
    assert.deepEqual(rows, [
      ["pSP expired", "bob", "—", "2 pSP"],
      ["pSP issued", "bob", "carol", "4 pSP"],
      ["pSP settled", "alice", "—", "12.25 pSP"],
      ["pSP issued", "bob", "brand", "7 pSP"],
      ["pSP issued", "alice", "brand", "30.5 pSP"],
      ["Minter configured", "—", "outsider", "—"],
      ["Minter configured", "—", "carol", "—"],
    ]);
    const csv = await csvOf("Download CSV in points", "campaign-spring-ledger-points.csv");
    assert.deepEqual(csv[0], [
      "time",
      "event",
      "onChainEvent",
      "campaign",
      "campaignId",
      "holder",
      "minter",
      "amount",
      "unit",
      "txHash",
    ]);
    // Oldest first: the pSP rows in the order they happened, amounts in points.
    assert.deepEqual(
      csv.filter((r) => r[2]!.startsWith("PSP")).map((r) => [r[1], r[3], r[4], r[5], r[6], r[7], r[8]]),
      [
        ["pSP issued", "spring", SPRING, alice.address, brand.address, "30.5", "pSP"],
        ["pSP issued", "spring", SPRING, bob.address, brand.address, "7", "pSP"],
        ["pSP settled", "spring", SPRING, alice.address, "", "12.25", "pSP"],
        ["pSP issued", "spring", SPRING, bob.address, carol.address, "4", "pSP"],
        ["pSP expired", "spring", SPRING, bob.address, "", "2", "pSP"],
      ],
    );
    assert.deepEqual(
      csv.filter((r) => r[2] === "CampaignFunded").map((r) => [r[1], r[7], r[8]]),
      [["Campaign funded", "100", "ACME"]],
    );
    await auditPage(page, "dashboard-campaign-ledger-lists");
    // The signed-out /me before sign-in answers 401 by design; no script error on any page.
    assert.deepEqual(
      problems.filter((p) => p.kind === "pageerror"),
      [],
    );
  });
});
