import { after, before, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { getAddress, id as labelHash, keccak256, parseUnits, toUtf8Bytes, type Wallet } from "ethers";
import type { Page } from "playwright-core";
import { Factory__factory, MockStablecoin__factory, PSPVault__factory, Points__factory } from "@points/contracts";
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
import { launch, screenshot } from "./helpers/browser.js";
import { steps } from "./helpers/steps.js";
import { injectWallet, type TestWallet } from "./helpers/wallet.js";
import { signIn, signInDialog, submitForm } from "./helpers/flow.js";
import { auditPage, WIDTHS } from "./helpers/audit.js";
import { badWraps, cardWidth, searchBesideName, squashedBadges, tabRows } from "./helpers/layout.js";

// By a computed path: the console's sources are typed for Vite (bundler resolution), not this tsconfig.
const readyInPath = "../src/dashboard/readyIn.ts";
const { readyIn } = (await import(readyInPath)) as { readyIn: (readyAtIso: string, nowMs: number) => string };

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/index.html");
const SP = (n: string) => parseUnits(n, 18);
const SPRING = labelHash("spring");
/** A fresh checksummed holder for the bulk drop's row i. */
const holder = (i: number) => getAddress("0x" + keccak256(toUtf8Bytes(`day-jobs-holder:${i}`)).slice(-40));

let page: Page;
const it = steps(() => screenshot(page, "day-jobs-failure"));

// One operations person's day, each step on the page they would use: find a customer and read
// their totals; filter the customer list; read a campaign's totals; lengthen the redeem delay and
// see that a pending request keeps the ready time the chain gave it; prepare a bulk drop whose
// per-row metadata costs one signature per row; and, the program paused, find Issue not offered,
// then with the Points token paused find Settle not offered and a redemption stopped at its form.
describe("console e2e: an operations person's day, in headless Chromium", () => {
  let node: DevNode;
  let api: TestApi<pointsApi.Service>;
  let closeBrowser: () => Promise<void>;
  let wallet: TestWallet;
  let brand: Wallet, alice: Wallet, bob: Wallet;
  let owner: string;
  let record: Awaited<ReturnType<typeof deployProgram>>["record"];

  before(async () => {
    assert.ok(existsSync(DIST), "build the console first: pnpm --filter @points/console build");
    node = await startNode();
    [brand, alice, bob] = [1, 2, 3].map((i) => devWallet(i, node.provider));
    const acme = await deployProgram(node.provider, "acme");
    record = acme.record;
    await fundedCampaign(node.provider, record, acme.usdc, "spring", 100n, JSON.stringify({ label: "spring" }));
    const vault = PSPVault__factory.connect(record.pspVault, brand);
    await (await vault.updateSettlementWhitelist(SPRING, alice, true)).wait();
    await (await Points__factory.connect(record.points, brand).addToTransferWhitelist(alice)).wait();
    // The brand mints 10 SP and asks to redeem them at the deployed delay of one hour.
    const factory = Factory__factory.connect(record.factory, brand);
    const stable = MockStablecoin__factory.connect(acme.usdc, brand);
    await (await factory.addToMintWhitelist(brand.address)).wait();
    await (await factory.addToRedeemWhitelist(brand.address)).wait();
    await (await stable.mint(brand.address, parseUnits("10", 6))).wait();
    await (await stable.approve(record.factory, parseUnits("10", 6))).wait();
    await (await factory.mint(acme.usdc, parseUnits("10", 6), brand.address)).wait();
    await (await Points__factory.connect(record.points, brand).approve(record.factory, SP("10"))).wait();
    assert.equal(await factory.redeemDelay(), 3600n);
    await (await factory.requestRedeem(acme.usdc, brand.address, SP("10"), false)).wait();
    api = await startApi(pointsApi, node.url, {
      // The node shares two cores with Chromium and the API: a slow answer is not an outage.
      RPC_TIMEOUT_MS: "60000",
      DEV_MAILBOX: "1",
      LEDGER_CONFIRMATIONS: "0",
      LEDGER_POLL_MS: "100",
    });
    await api.service.ctx.programs.insert(record);
    owner = (await pointsApi.createDevProgramAccount(api.service.ctx, "acme", brand.address)).email;
    const { key } = await api.service.ctx.keys.create("operations");
    const sdk = createClient({ baseUrl: api.url, apiKey: key, program: "acme" });
    const issuer = sdk.issuer(brand, { salt: "day-jobs-e2e-salt" });
    await issuer.issue({ orderRef: "A-1", campaignId: "spring", to: alice.address, amount: SP("30.5") });
    await issuer.issue({ orderRef: "B-1", campaignId: "spring", to: bob.address, amount: SP("7") });
    await issuer.settle({
      orderRef: "A-1",
      campaignId: "spring",
      holder: alice.address,
      receiver: alice.address,
      amount: SP("12.25"),
    });
    await issuer.clawback({ orderRef: "B-1", campaignId: "spring", holder: bob.address, amount: SP("2") });
    const b = await launch({ width: 1440, height: 900 });
    closeBrowser = b.close;
    page = b.context.pages()[0] ?? (await b.context.newPage());
    page.setDefaultTimeout(30_000);
    wallet = await injectWallet(page, node.provider, brand);
  });

  after(async () => {
    await closeBrowser?.();
    await api?.close();
    await node?.stop();
  });

  /** The customer list's rows: full address, then each amount as rendered. */
  const listRows = async () => {
    const out: string[][] = [];
    for (const row of await page.getByTestId("customer-list-row").all()) {
      const cells = row.locator("td");
      const address = (await cells.nth(0).locator(".sr-only").first().innerText()).trim();
      const amounts: string[] = [];
      for (let i = 1; i < 6; i++) amounts.push((await cells.nth(i).innerText()).trim());
      out.push([address, ...amounts]);
    }
    return out;
  };
  const filter = async (prefix: string, min: string) => {
    await page.getByLabel("Address starts with").fill(prefix);
    await page.getByLabel("Minimum ACME balance").fill(min);
    await page.getByRole("button", { name: "Filter", exact: true }).click();
  };
  const rowCount = (n: number) =>
    page.waitForFunction((n) => document.querySelectorAll('[data-testid="customer-list-row"]').length === n, n);
  /** The rendered lines of one of a campaign's money tables, white space squeezed. */
  const linesOf = async (testId: string) =>
    (await page.getByTestId(testId).locator("tr").allInnerTexts()).map((t) => t.replace(/\s+/g, " ").trim());

  it("findACustomer_byTheirAddress_andReadTheirSpAndPspExactly", async () => {
    await page.goto(`${api.url}/console/`);
    await signIn(page, api.url, owner);
    await page.getByRole("link", { name: "Customers", exact: true }).click();
    await page.waitForURL(`${api.url}/console/program/customer`);
    await page.getByRole("button", { name: "Connect wallet" }).click();
    await page.getByText("From the ledger, as of block").waitFor();
    await filter(alice.address, "");
    await rowCount(1);
    await page.getByRole("link", { name: `Open customer ${alice.address}` }).click();
    await page.waitForURL(`${api.url}/console/program/customer/${alice.address}`);
    await page.getByTestId("customer-sp").filter({ hasText: "12.25 ACME" }).waitFor();
    assert.equal((await page.getByTestId("customer-sp").innerText()).trim(), "12.25 ACME");
    const rows = await page.getByTestId("customer-psp-row").all();
    assert.equal(rows.length, 1);
    const cells = (await rows[0]!.locator("td").allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(cells, ["spring", "18.25 pSP", "yes", "no"]);
    await auditPage(page, "day-jobs-customer");
  });

  it("listCustomers_all_thenThoseHoldingAtLeast12.25Acme_isAliceAlone", async () => {
    await page.goBack();
    await page.waitForURL(`${api.url}/console/program/customer`);
    await filter("", "");
    await rowCount(2);
    assert.deepEqual(await listRows(), [
      [alice.address, "12.25 ACME", "18.25 pSP", "30.5 pSP", "12.25 pSP", "0 pSP"],
      [bob.address, "0 ACME", "5 pSP", "7 pSP", "0 pSP", "2 pSP"],
    ]);
    await filter("", "12.25");
    await page.waitForFunction(
      () =>
        document.querySelectorAll('[data-testid="customer-list-row"]').length === 1 &&
        document.querySelector('[data-testid="customer-list-row"]')!.textContent!.includes("12.25 ACME"),
    );
    assert.deepEqual(await listRows(), [[alice.address, "12.25 ACME", "18.25 pSP", "30.5 pSP", "12.25 pSP", "0 pSP"]]);
  });

  it("aCampaignsTotals_issuedClawedBackAvailableOutstanding_toTheWei", async () => {
    const state = await PSPVault__factory.connect(record.pspVault, node.provider).getCampaign(SPRING);
    assert.deepEqual([state.available, state.outstanding], [SP("64.5"), SP("23.25")]);
    await page.goto(`${api.url}/console/program/campaigns/${SPRING}`);
    await page.getByTestId("money-adds-up").waitFor();
    assert.equal(await page.getByTestId("campaign-available").innerText(), "64.5 ACME");
    // Outstanding is pSP, as the campaigns list says; the budget flow below adds it up in the SP it stands for.
    assert.equal(await page.getByTestId("campaign-outstanding").innerText(), "23.25 pSP");
    assert.deepEqual(await linesOf("money-flow-budget"), [
      "Budget (funded in total) 100 ACME",
      "Issued as pSP − 37.5 ACME",
      "Clawed back while open (back into available) + 2 ACME",
      "Available to issue = 64.5 ACME",
    ]);
    assert.deepEqual(await linesOf("money-flow-issued"), [
      "Issued as pSP 37.5 ACME",
      "Settled into SP − 12.25 ACME",
      "Clawed back (expired) − 2 ACME",
      "Outstanding pSP = 23.25 ACME",
    ]);
    await auditPage(page, "day-jobs-campaign");
  });

  it("layout_theHeadTabsFormsBadgesAndLedger_useTheWidthAt1440_andFitAt390", async () => {
    const [wide, phone] = WIDTHS;
    await page.goto(`${api.url}/console/program/customer/${alice.address}`);
    await page.getByTestId("customer-psp-row").waitFor();
    // The eleven page links in one row, and "Find a customer" beside the program's name, not above it.
    assert.equal(await tabRows(page), 1);
    assert.equal(await searchBesideName(page), true, "the search box shares the name's row");
    await page.setViewportSize(phone);
    assert.deepEqual(await squashedBadges(page, '[data-testid="customer-psp-row"]'), []);
    await page.goto(`${api.url}/console/program/campaigns/${SPRING}/ledger`);
    await page.locator("td code[title]").first().waitFor();
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      assert.deepEqual(await badWraps(page), [], `the ledger at ${size.width} px`);
    }
    // Forms once a third of the page wide, beside empty space: half of it at 1440 px, all of it at 390 px.
    const forms = {
      campaigns: "Create a campaign",
      roles: "Grant, revoke or check a role",
      redemption: "Request a redemption",
      bulk: "Bulk drop",
    };
    for (const [path, title] of Object.entries(forms)) {
      await page.goto(`${api.url}/console/program/${path}`);
      await page.getByRole("region", { name: title, exact: true }).waitFor();
      await page.setViewportSize(wide);
      const at1440 = await cardWidth(page, title);
      assert.ok(at1440 >= 540, `${title} at 1440 px: ${at1440} px wide`);
      await page.setViewportSize(phone);
      const at390 = await cardWidth(page, title);
      assert.ok(at390 >= 360, `${title} at 390 px: ${at390} px wide`);
    }
    await page.setViewportSize(wide);
  });

  it("redeemDelay_setToTwoHoursInSettings_thePendingRequestKeepsTheReadyTimeTheChainGaveIt", async () => {
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await page.waitForURL(`${api.url}/console/program/settings`);
    const form = page.locator('form[data-form="redeem-delay"]');
    await form.getByLabel("New redeem delay", { exact: true }).fill("2");
    await form.getByLabel("Unit", { exact: true }).selectOption("hours");
    await form.getByRole("button", { name: "Review the new delay" }).click();
    await page.getByRole("dialog").getByTestId("tx-words").getByText("2 h (now 1 h)").waitFor();
    await signInDialog(page, "day-jobs-delay");
    const factory = Factory__factory.connect(record.factory, node.provider);
    assert.equal(await factory.redeemDelay(), 7200n);

    const readyAt = new Date(Number(await factory.redeemReadyAt(1)) * 1000).toISOString();
    const from = await page.evaluate(() => Date.now());
    await page.getByRole("link", { name: "Redemption", exact: true }).click();
    const row = page
      .getByRole("table")
      .getByRole("row")
      .filter({ has: page.getByRole("cell", { name: "1", exact: true }) });
    const badge = row.locator(".badge");
    await badge.filter({ hasText: /^ready in / }).waitFor();
    const text = (await badge.innerText()).trim();
    const to = await page.evaluate(() => Date.now());
    // The page words the chain's readyAt at the browser's clock while it rendered: one of these.
    const expected = new Set<string>();
    for (let t = from; t < to + 60_000; t += 30_000) expected.add(readyIn(readyAt, Math.min(t, to)));
    assert.ok(expected.has(text), `${text} is none of ${[...expected].join(" | ")}`);
    await auditPage(page, "day-jobs-redemption");
    // The page not scrolling is not enough: in a third of a 1440 px page the table spilled past its card.
    const card = page.getByRole("region", { name: "Recent requests", exact: true });
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      const { scrollWidth, clientWidth } = await card.evaluate((c) => ({
        scrollWidth: c.scrollWidth,
        clientWidth: c.clientWidth,
      }));
      assert.equal(scrollWidth, clientWidth, `the requests table overflows its card at ${size.width} px`);
    }
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it("bulkDrop_withPerRowMetadata_saysItCostsOneSignaturePerRow", async () => {
    await page.getByRole("link", { name: "Bulk drops", exact: true }).click();
    await page
      .getByLabel("Campaign", { exact: true })
      .locator("option", { hasText: "spring" })
      .waitFor({ state: "attached" });
    const lines = [0, 1, 2].map((i) => `${holder(i)},1,${i % 2 ? "order odd" : "order even"}`);
    await page.getByLabel("CSV file", { exact: true }).setInputFiles({
      name: "tagged.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(["address,amount,metadata", ...lines].join("\n")),
    });
    await page.getByRole("button", { name: "Check rows (dry run)" }).click();
    const dry = page.getByTestId("bulk-dry-run");
    await dry.getByTestId("bulk-metadata-split").waitFor();
    assert.equal(await dry.getByTestId("bulk-chunks").innerText(), "3");
    assert.equal(
      (await dry.getByTestId("bulk-metadata-split").locator("p").innerText()).replace(/\s+/g, " ").trim(),
      "A transaction carries one metadata text, so a row whose metadata differs from the row before starts a " +
        "new transaction: 3 rows with 2 different texts need 3 signatures. Without the metadata column the rows " +
        "share transactions as far as gas allows.",
    );
    assert.equal(wallet.calls.filter((c) => c === "eth_sendTransaction").length, 1, "only the delay change");
    await auditPage(page, "day-jobs-bulk");
  });

  it("theRedemptionDesk_opensForTheDevProgramsAccount_asOnThePnpmStartDemo_notNotFound", async () => {
    // The account `pnpm start` prints reaches its program's desk though it never ran the wizard.
    await page.getByRole("link", { name: "Redemption desk", exact: true }).click();
    await page.waitForURL(`${api.url}/console/program/redemption-desk`);
    await page.getByTestId("desk-status").waitFor();
    // The program came with no desk policy: the desk is off, and the page says so (not NOT_FOUND).
    assert.equal(await page.getByTestId("desk-status").innerText(), "The executor does nothing for this program.");
    assert.equal(await page.getByText("NOT_FOUND").count(), 0);
    assert.equal(await page.getByText("no program").count(), 0);
    // The policy's radio buttons line up at the fieldset's edge, each its own size, labels beside them.
    const radios = await page
      .locator('input[name="desk-policy"]')
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()).map((r) => ({ x: Math.round(r.x), w: r.width })));
    assert.equal(radios.length, 3);
    assert.deepEqual(
      radios.map((r) => r.x),
      radios.map(() => radios[0]!.x),
      "one column",
    );
    assert.ok(
      radios.every((r) => r.w <= 24),
      `radio widths ${radios.map((r) => r.w).join(", ")}`,
    );
    // Its queue (the brand's pending request) stays inside the page at both widths.
    await page.getByRole("table", { name: "Redemption queue" }).getByText("#1", { exact: true }).waitFor();
    await auditPage(page, "day-jobs-desk");
  });

  it("pausedProgram_theCampaignSaysSo_andIssueIsNotOffered_withTheReason", async () => {
    await (await PSPVault__factory.connect(record.pspVault, brand).pause()).wait();
    await page.goto(`${api.url}/console/program/campaigns/${SPRING}`);
    await page.getByTestId("vault-paused").waitFor();
    assert.equal(await page.getByTestId("vault-paused").innerText(), "Campaign vault paused");
    const reason =
      "The Campaign vault is paused: nothing moves until a PAUSER_ROLE holder unpauses it on the Roles page.";
    assert.equal(await page.getByTestId("issue-psp-unavailable").innerText(), reason);
    assert.equal(await page.locator('form[data-form="issue-psp"]').count(), 0);
    await auditPage(page, "day-jobs-paused");
    await page.goto(`${api.url}/console/program/campaigns`);
    await page.getByTestId("campaigns-vault-paused").waitFor();
    const status = page.getByTestId("campaign-row").first().locator('td[data-label="Status"]');
    assert.equal((await status.innerText()).replace(/\s+/g, " ").trim(), "Active vault paused");
    await auditPage(page, "day-jobs-paused-list");
    // A bulk drop goes through the Campaign vault: its dry run stops, naming the paused contract.
    const sent = wallet.calls.filter((c) => c === "eth_sendTransaction").length;
    await page.getByRole("link", { name: "Bulk drops", exact: true }).click();
    await page
      .getByLabel("Campaign", { exact: true })
      .locator("option", { hasText: "spring" })
      .waitFor({ state: "attached" });
    await page.getByLabel("CSV file", { exact: true }).setInputFiles({
      name: "paused.csv",
      mimeType: "text/csv",
      buffer: Buffer.from(`address,amount\n${holder(0)},1`),
    });
    await page.getByRole("button", { name: "Check rows (dry run)" }).click();
    await page
      .getByRole("alert")
      .getByText(
        "The Campaign vault is paused, so this drop would fail. Nothing can be sent until a PAUSER_ROLE holder unpauses it on the Roles page.",
        { exact: true },
      )
      .waitFor();
    assert.equal(await page.getByTestId("bulk-dry-run").count(), 0);
    assert.equal(wallet.calls.filter((c) => c === "eth_sendTransaction").length, sent, "nothing signed");
  });

  it("pausedPointsToken_settleIsNotOffered_andARedemptionRequestStopsAtTheForm_beforeAnythingIsSigned", async () => {
    await (await PSPVault__factory.connect(record.pspVault, brand).unpause()).wait();
    await (await Points__factory.connect(record.points, brand).pause()).wait();
    const sent = () => wallet.calls.filter((c) => c === "eth_sendTransaction").length;
    const before = sent();
    await page.goto(`${api.url}/console/program/campaigns/${SPRING}`);
    await page.getByTestId("settle-unavailable").waitFor();
    assert.equal(
      await page.getByTestId("settle-unavailable").innerText(),
      "The Points token is paused: no SP moves, so nothing can be settled until a PAUSER_ROLE holder unpauses it on the Roles page.",
    );
    assert.equal(await page.getByTestId("vault-paused").count(), 0);
    assert.equal(await page.locator('form[data-form="issue-psp"]').count(), 1, "issuing pSP moves no SP");
    // Funding pays SP from the wallet: stopped at the form, before any approval.
    await submitForm(page, "fund", { "Amount (ACME)": "1" });
    await page.getByTestId("fund-blocked").waitFor();
    assert.equal(
      await page.getByTestId("fund-blocked").innerText(),
      "The Points token is paused, so this funding would fail. Nothing can be sent until a PAUSER_ROLE holder unpauses it on the Roles page.",
    );
    // Closing would pay the funder's unused budget back in SP: stopped too.
    await submitForm(page, "close", {});
    await page.getByTestId("close-blocked").waitFor();
    assert.equal(
      await page.getByTestId("close-blocked").innerText(),
      "The Points token is paused, so closing this campaign would fail. Nothing can be sent until a PAUSER_ROLE holder unpauses it on the Roles page.",
    );
    await page.goto(`${api.url}/console/program/redemption`);
    await submitForm(page, "redeem", { "Amount (ACME)": "1" });
    await page.getByTestId("redeem-blocked").waitFor();
    assert.equal(
      await page.getByTestId("redeem-blocked").innerText(),
      "The Points token is paused, so this request would fail. Nothing can be sent until a PAUSER_ROLE holder unpauses it on the Roles page.",
    );
    assert.equal(sent(), before, "nothing built or signed");
    // The pending request: cancelling returns SP and finalizing burns it, so neither is offered.
    const row = page.locator("tr").filter({ has: page.locator('td[data-label="#"]', { hasText: /^1$/ }) });
    await row.waitFor();
    assert.match(await row.locator('td[data-label="Status"] .badge').innerText(), /^ready/);
    assert.equal(
      await page.getByTestId("redemption-paused").innerText(),
      "The Points token is paused: no request can be cancelled or finalized until a PAUSER_ROLE holder unpauses it on the Roles page.",
    );
    assert.equal(await page.getByRole("button", { name: "Cancel", exact: true }).count(), 0);
    assert.equal(await page.getByRole("button", { name: "Finalize", exact: true }).count(), 0);
    await auditPage(page, "day-jobs-points-paused");
  });
});
