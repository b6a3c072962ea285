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
import {
  deployProgram,
  devWallet,
  fundedCampaign,
  startApi,
  startFaultProxy,
  startNode,
  type DevNode,
  type FaultProxy,
  type TestApi,
} from "@points/testkit";
import { launch, screenshot, watchProblems, type PageProblem } from "./helpers/browser.js";
import { steps } from "./helpers/steps.js";
import { injectWallet } from "./helpers/wallet.js";
import { signIn, signInDialog, signOut, submitForm } from "./helpers/flow.js";
import { auditPage } from "./helpers/audit.js";
import { startReceiver } from "./helpers/receiver.js";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/index.html");
const SP = (n: string) => parseUnits(n, 18);
const SPRING = labelHash("spring");

let page: Page;
// The steps build on each other: after a failure the rest are skipped, not failed again.
const it = steps(() => screenshot(page, "ledger-failure"));

/** The visible rows of a ledger event table: [event, campaign, amount] of each, newest first. */
async function eventRows(page: Page) {
  const rows = page.getByTestId("ledger-row");
  const out: string[][] = [];
  for (const row of await rows.all()) {
    const cell = (label: string) => row.locator(`td[data-label="${label}"]`);
    out.push([
      (await cell("Event").locator(":scope > span").first().innerText()).split("\n")[0]!.trim(),
      (await cell("Campaign").innerText()).trim(),
      (await cell("Amount").innerText()).trim(),
    ]);
  }
  return out;
}

/** Downloads the CSV the page links, parsed: [event, campaignId, amount] per row, oldest first. */
async function downloadCsv(page: Page) {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Download CSV" }).click(),
  ]);
  const text = readFileSync((await download.path())!, "utf8");
  const rows = parse(text, { columns: true }) as Record<string, string>[];
  return rows.map((r) => [r.event, r.campaignId, r.amount, r.txHash]);
}

describe("console e2e: the ledger pages (customer, campaign ledger, webhooks) in headless Chromium", () => {
  let node: DevNode;
  let api: TestApi<pointsApi.Service>;
  let closeBrowser: () => Promise<void>;
  let problems: PageProblem[];
  let brand: Wallet, alice: Wallet;
  let owner: string, neighbour: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let pspVault: string, points: string;
  let rpc: FaultProxy;

  before(async () => {
    assert.ok(existsSync(DIST), "build the console first: pnpm --filter @points/console build");
    node = await startNode();
    [brand, alice] = [1, 2].map((i) => devWallet(i, node.provider));
    const acme = await deployProgram(node.provider, "acme");
    const other = await deployProgram(node.provider, "other", {
      release: { programFactory: acme.programFactory, usdc: acme.usdc },
    });
    ({ pspVault, points } = acme.record);
    // A campaign named "spring" (its label in the creation metadata) that may settle to alice,
    // who may hold SP while transfers are restricted.
    await fundedCampaign(node.provider, acme.record, acme.usdc, "spring", 100n, JSON.stringify({ label: "spring" }));
    await (await PSPVault__factory.connect(pspVault, brand).updateSettlementWhitelist(SPRING, alice, true)).wait();
    await (await Points__factory.connect(points, brand).addToTransferWhitelist(alice)).wait();
    receiver = await startReceiver();
    // The API reaches the chain through a proxy that can go down: the ledger then falls behind
    // while the wallet (straight to the node) sees the chain move on.
    rpc = await startFaultProxy(node.url);
    api = await startApi(pointsApi, rpc.url, {
      DEV_MAILBOX: "1",
      // A dev chain that mines on demand: the ledger reads the head, and the receiver is on loopback.
      LEDGER_CONFIRMATIONS: "0",
      LEDGER_POLL_MS: "100",
      LEDGER_RPC_RETRIES: "1",
      LEDGER_RETRY_MIN_MS: "20",
      WEBHOOK_ALLOW_PRIVATE: "true",
      WEBHOOK_POLL_MS: "100",
    });
    await api.service.ctx.programs.insert(acme.record);
    await api.service.ctx.programs.insert(other.record);
    // Two console accounts, each with its own program (as pnpm start's demo account gets one).
    owner = (await pointsApi.createDevProgramAccount(api.service.ctx, "acme", brand.address)).email;
    neighbour = (await pointsApi.createDevProgramAccount(api.service.ctx, "other", brand.address)).email;
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
    await receiver?.close();
    await rpc?.close();
    await node?.stop();
  });

  it("theOwner_issuesAndSettlesPspToACustomer_onTheCampaignTheLedgerLists", async () => {
    await page.goto(`${api.url}/console/`);
    await signIn(page, api.url, owner);
    await page.getByRole("link", { name: "Campaigns", exact: true }).click();
    await page.getByRole("button", { name: "Connect wallet" }).click();
    // The list and the name come from the ledger: the label is verified against the campaign id.
    await page.getByRole("table", { name: "Campaigns" }).getByRole("button", { name: "spring" }).click();
    await page.waitForURL(`${api.url}/console/program/campaigns/${SPRING}`);
    await submitForm(page, "issue-psp", { Holder: alice.address, "Amount (pSP)": "30" });
    await signInDialog(page, "ledger-issue");
    await submitForm(page, "settle", {
      Holder: alice.address,
      Receiver: alice.address,
      "Amount (pSP)": "12",
    });
    await signInDialog(page, "ledger-settle");
    const vault = PSPVault__factory.connect(pspVault, node.provider);
    assert.equal(await vault.balanceOf(SPRING, alice.address), SP("18"));
    assert.equal(await Points__factory.connect(points, node.provider).balanceOf(alice.address), SP("12"));
  });

  it("findACustomer_fromAnotherPage_explainsAChecksumTypoAtTheField_thenOpensTheCustomerPage", async () => {
    await page.getByRole("link", { name: "Roles", exact: true }).click();
    await page.waitForURL(`${api.url}/console/program/roles`);
    const search = page.getByRole("search", { name: "Find a customer" });
    const field = search.getByLabel("Find a customer", { exact: true });
    const i = alice.address.slice(2).search(/[a-fA-F]/) + 2;
    const c = alice.address[i]!;
    const typo =
      alice.address.slice(0, i) +
      (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) +
      alice.address.slice(i + 1);
    await field.fill(typo);
    await search.getByRole("button", { name: "Find" }).click();
    await search
      .getByText("This address has a typo: its capital letters do not match its checksum. Copy it again.")
      .waitFor();
    assert.equal(await field.getAttribute("aria-invalid"), "true");
    assert.equal(new URL(page.url()).pathname, "/console/program/roles", "a mistyped address opens nothing");
    await field.fill(alice.address.toLowerCase());
    await field.press("Enter");
    await page.waitForURL(`${api.url}/console/program/customer/${alice.address}`);
  });

  it("customerPage_showsTheExactBalances_andEveryEventOfTheCustomer", async () => {
    await page
      .getByTestId("customer-sp")
      .filter({ hasText: /^12 ACME$/ })
      .waitFor();
    const spring = page.getByTestId("customer-psp-row").filter({ hasText: "spring" });
    await spring
      .locator('td[data-label="pSP"]')
      .filter({ hasText: /^18 pSP$/ })
      .waitFor();
    assert.equal(await page.getByTestId("customer-psp-row").count(), 1);
    assert.equal((await spring.locator('td[data-label="Settlement allowlist"]').innerText()).trim(), "yes");
    const allowlists = page.getByTestId("customer");
    assert.equal((await allowlists.locator("dt:has-text('SP transfer allowlist') + dd").innerText()).trim(), "yes");
    assert.equal((await allowlists.locator("dt:has-text('Mint allowlist') + dd").innerText()).trim(), "no");
    // The ledger names the block it is consistent with: the chain's head, nothing mined since the settlement.
    const head = (await node.provider.getBlockNumber()).toLocaleString("en-US");
    await page
      .getByRole("region", { name: "Customer", exact: true })
      .getByTestId("ledger-status")
      .filter({ hasText: `From the ledger, as of block ${head}.` })
      .waitFor();
    const history = page.getByRole("table", { name: "Customer history" });
    await history.getByTestId("ledger-row").nth(4).waitFor();
    assert.deepEqual(await eventRows(page), [
      ["SP transfer", "—", "12 ACME"],
      ["pSP settled", "spring", "12 pSP"],
      ["pSP issued", "spring", "30 pSP"],
      ["Transfer allowlist changed", "—", "—"],
      ["Settlement allowlist changed", "spring", "—"],
    ]);
    // Each row names its transaction (no explorer on a local chain: the hash itself).
    const vault = PSPVault__factory.connect(pspVault, node.provider);
    const [minted] = await vault.queryFilter(vault.filters.PSPMinted(SPRING, undefined, alice.address));
    await history.getByTestId("ledger-row").nth(2).getByText(minted!.transactionHash).waitFor({ state: "attached" });
    await screenshot(page, "customer");
    await auditPage(page, "dashboard-customer");
  });

  it("aLedgerBehindTheChain_saysCatchingUp_thenUpdatesByItself", async () => {
    const status = page.getByRole("region", { name: "Customer", exact: true }).getByTestId("ledger-status");
    const at = await node.provider.getBlockNumber();
    rpc.faults.down = true;
    await node.mine(6);
    await page.reload();
    await status
      .filter({
        hasText: `Catching up: the ledger is at block ${at}, the chain at ${at + 6}. This page updates by itself.`,
      })
      .waitFor();
    await auditPage(page, "dashboard-customer-catching-up");
    rpc.faults.down = false;
    await status.filter({ hasText: `From the ledger, as of block ${at + 6}.` }).waitFor();
    await page
      .getByTestId("customer-sp")
      .filter({ hasText: /^12 ACME$/ })
      .waitFor();
  });

  it("customerCsv_holdsTheSameEvents_oldestFirst", async () => {
    const rows = await downloadCsv(page);
    assert.deepEqual(
      rows.map(([event, campaign, amount]) => [event, campaign, amount]),
      [
        ["SettlementWhitelistUpdated", SPRING, ""],
        ["TransferWhitelistUpdated", "", ""],
        ["PSPMinted", SPRING, SP("30").toString()],
        ["PSPSettled", SPRING, SP("12").toString()],
        ["Transfer", "", SP("12").toString()],
      ],
    );
  });

  it("campaignLedger_hasItsOwnUrl_listsEveryEventOfTheCampaign_andDownloadsThem", async () => {
    await page.goto(`${api.url}/console/program/campaigns/${SPRING}`);
    await page.getByRole("link", { name: "Campaign ledger and CSV" }).click();
    await page.waitForURL(`${api.url}/console/program/campaigns/${SPRING}/ledger`);
    await page.reload();
    const table = page.getByRole("table", { name: "Campaign ledger" });
    await table.getByTestId("ledger-row").nth(5).waitFor();
    // The creation funds the budget and makes its creator a campaign admin, each an event.
    assert.deepEqual(await eventRows(page), [
      ["pSP settled", "spring", "12 pSP"],
      ["pSP issued", "spring", "30 pSP"],
      ["Settlement allowlist changed", "spring", "—"],
      ["Campaign funded", "spring", "100 ACME"],
      ["Campaign admin changed", "spring", "—"],
      ["Campaign created", "spring", "—"],
    ]);
    const rows = await downloadCsv(page);
    assert.deepEqual(
      rows.map(([event, , amount]) => [event, amount]),
      [
        ["CampaignCreated", ""],
        ["CampaignAdminUpdated", ""],
        ["CampaignFunded", SP("100").toString()],
        ["SettlementWhitelistUpdated", ""],
        ["PSPMinted", SP("30").toString()],
        ["PSPSettled", SP("12").toString()],
      ],
    );
    assert.ok(rows.every(([, campaign]) => campaign === SPRING));
    await screenshot(page, "campaign-ledger");
    await auditPage(page, "dashboard-campaign-ledger");
  });

  it("webhooks_createdWithTheSecretShownOnce_deliverSignedEvents_thenPauseResumeRedeliverDelete", async () => {
    await page.getByRole("link", { name: "Webhooks", exact: true }).click();
    await page.waitForURL(`${api.url}/console/program/webhooks`);
    await page.getByText("No webhook yet").waitFor();
    await auditPage(page, "dashboard-webhooks");
    const form = page.locator('form[data-form="create-webhook"]');
    await form.getByLabel("Receiver URL", { exact: true }).fill(receiver.url);
    await form.getByLabel("pSP issued", { exact: true }).check();
    await form.getByRole("button", { name: "Add webhook" }).click();
    const secret = (await page.getByTestId("webhook-secret").innerText()).trim();
    assert.match(secret, /^whsec_[A-Za-z0-9+/=]+$/);
    await page.getByText("it is shown this once and never again").waitFor();
    receiver.state.secret = secret;
    await screenshot(page, "webhook-secret");
    await page.getByRole("button", { name: "I stored it" }).click();
    assert.equal(await page.getByText(secret).count(), 0, "the secret is gone once stored");

    // A new issuance after the subscription: the receiver gets it, signed.
    const tx = await PSPVault__factory.connect(pspVault, brand).mint(SPRING, alice.address, SP("1"), "");
    await tx.wait();
    const card = page.getByTestId("webhook");
    const delivered = card
      .getByTestId("delivery-row")
      .filter({ hasText: "pSP issued" })
      .filter({ hasText: "delivered" });
    for (let i = 0; i < 60 && (await delivered.count()) === 0; i++) {
      await card.getByRole("button", { name: "Refresh log" }).click();
      await page.waitForTimeout(250);
    }
    await delivered.waitFor();
    assert.deepEqual(
      receiver.state.accepted.map((d) => [d.type, d.event]),
      [["ledger.event", "PSPMinted"]],
    );
    assert.equal(receiver.state.badSignatures, 0);
    await auditPage(page, "dashboard-webhooks-log");

    await card.getByRole("button", { name: "Pause" }).click();
    await card
      .getByTestId("webhook-status")
      .filter({ hasText: /^paused$/ })
      .waitFor();
    await card.getByRole("button", { name: "Resume" }).click();
    await card
      .getByTestId("webhook-status")
      .filter({ hasText: /^active$/ })
      .waitFor();

    // Redelivering sends the same event again under the same webhook-id.
    await card.getByRole("button", { name: /^Redeliver pSP issued of block \d+$/ }).click();
    for (let i = 0; i < 60 && receiver.state.accepted.length < 2; i++) await page.waitForTimeout(100);
    assert.equal(receiver.state.accepted.length, 2);
    assert.equal(receiver.state.accepted[1]!.id, receiver.state.accepted[0]!.id);

    await card.getByRole("button", { name: "Delete", exact: true }).click();
    const confirm = page.getByRole("alertdialog", { name: "Delete this webhook?" });
    await confirm.getByText("This cannot be undone.").waitFor();
    await confirm.getByRole("button", { name: "Delete webhook" }).click();
    await page.getByText("No webhook yet").waitFor();
  });

  it("anotherAccount_cannotSeeThisProgramsCustomer", async () => {
    await signOut(page);
    await signIn(page, api.url, neighbour);
    await page.getByRole("link", { name: "Overview", exact: true }).waitFor();
    // Its customer page is its own program's: alice holds nothing there, and no campaign is shown.
    await page.goto(`${api.url}/console/program/customer/${alice.address}`);
    await page
      .getByTestId("customer-sp")
      .filter({ hasText: /^0 ACME$/ })
      .waitFor();
    await page.getByText("This program has no campaign yet.").waitFor();
    assert.equal(await page.getByText("spring").count(), 0);
    // The owner's program read with this session, page and CSV alike: as unknown as any program.
    for (const path of [
      `/api/v1/ledger/holders/${alice.address}/history?program=acme`,
      `/api/v1/ledger/holders/${alice.address}/history.csv?program=acme`,
      `/api/v1/ledger/campaigns/${SPRING}/ledger?program=acme`,
    ]) {
      const res = await page.request.get(`${api.url}${path}`);
      assert.equal(res.status(), 404, path);
      assert.equal((await res.json()).error.code, "NOT_FOUND", path);
    }
    assert.deepEqual(
      problems.filter((p) => p.kind === "pageerror"),
      [],
    );
  });
});
