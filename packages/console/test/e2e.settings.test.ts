import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { Factory__factory, type Factory } from "@points/contracts";
import * as pointsApi from "@points/api";
import { deployProgram, devWallet, startApi, startNode, type DevNode, type TestApi } from "@points/testkit";
import { launch, screenshot } from "./helpers/browser.js";
import { signIn, signInDialog } from "./helpers/flow.js";
import { injectWallet, type TestWallet } from "./helpers/wallet.js";
import { auditPage } from "./helpers/audit.js";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/index.html");

// The Settings page: the Factory's redeem delay, fees and fee receiver in words, each changed
// through the transaction review and read back from the chain; forms only for the roles held.
describe("console e2e: a program's settings, changed from the console, in headless Chromium", () => {
  let node: DevNode;
  let api: TestApi<pointsApi.Service>;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let wallet: TestWallet;
  let factory: Factory;
  let pspVault: string;

  before(async () => {
    assert.ok(existsSync(DIST), "build the console first: pnpm --filter @points/console build");
    node = await startNode();
    const brand = devWallet(1, node.provider);
    const { record } = await deployProgram(node.provider, "acme");
    factory = Factory__factory.connect(record.factory, node.provider);
    pspVault = record.pspVault;
    api = await startApi(pointsApi, node.url, {
      // The node shares two cores with Chromium and the API: a slow answer is not an outage.
      RPC_TIMEOUT_MS: "60000",
      DEV_MAILBOX: "1",
      LEDGER_CONFIRMATIONS: "0",
      LEDGER_POLL_MS: "100",
    });
    await api.service.ctx.programs.insert(record);
    const owner = (await pointsApi.createDevProgramAccount(api.service.ctx, "acme", brand.address)).email;
    const b = await launch({ width: 1440, height: 900 });
    closeBrowser = b.close;
    page = b.context.pages()[0] ?? (await b.context.newPage());
    page.setDefaultTimeout(30_000);
    wallet = await injectWallet(page, node.provider, brand);
    await page.goto(`${api.url}/console/`);
    await signIn(page, api.url, owner);
    await page.getByRole("link", { name: "Settings", exact: true }).click();
    await page.waitForURL(`${api.url}/console/program/settings`);
    await page.getByRole("button", { name: "Connect wallet" }).click();
  });

  after(async () => {
    await closeBrowser?.();
    await api?.close();
    await node?.stop();
  });

  const shows = (testId: string, text: string) => page.getByTestId(testId).filter({ hasText: text }).first().waitFor();
  const form = (name: string) => page.locator(`form[data-form="${name}"]`);

  it("currentSettings_inWords_theDeployedDelayIsOneHour_noFees_theAdminWalletReceives", async () => {
    await shows("setting-redeem-delay", "1 h");
    assert.equal(await page.getByTestId("setting-redeem-delay").innerText(), "1 h");
    assert.equal(await page.getByTestId("setting-mint-fee").innerText(), "none (0 bps)");
    assert.equal(await page.getByTestId("setting-redeem-fee").innerText(), "none (0 bps)");
    // Deployed without a fee receiver, the program's admin (the connected wallet) is it.
    await shows("fee-receiver-name", "your wallet");
    assert.match(await page.getByTestId("setting-fee-receiver").innerText(), new RegExp(wallet.account.address));
    await form("redeem-delay").waitFor();
    await auditPage(page, "settings");
  });

  it("redeemDelay_twoHours_reviewedInWords_signed_andTheChainSays7200", async () => {
    await form("redeem-delay").getByLabel("New redeem delay", { exact: true }).fill("2");
    await form("redeem-delay").getByLabel("Unit", { exact: true }).selectOption("hours");
    await form("redeem-delay").getByText("That is 2 h.").waitFor();
    await form("redeem-delay").getByRole("button", { name: "Review the new delay" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("tx-words").getByText("2 h (now 1 h)").waitFor();
    // The raw call is behind "Technical details", not in the review's words.
    assert.equal(await dialog.getByText("7200", { exact: true }).isVisible(), false);
    const text = await signInDialog(page, "settings-delay");
    assert.match(text, /Confirmed/);
    assert.equal(await factory.redeemDelay(), 7200n);
    await shows("setting-redeem-delay", "2 h");
  });

  it("fees_toAReceiverOffTheTransferAllowlist_areStoppedAtTheForm_thenTheCampaignVaultReceives_andTheFeesLand", async () => {
    const fees = form("fees");
    await fees.getByLabel("Mint fee (%)", { exact: true }).fill("0.25");
    await fees.getByLabel("Redeem fee (%)", { exact: true }).fill("1");
    await fees.getByText("That is 0.25% (25 bps).").waitFor();
    const sent = wallet.calls.filter((c) => c === "eth_sendTransaction").length;
    await fees.getByRole("button", { name: "Review the new fees" }).click();
    const blocked = page.getByTestId("fees-blocked");
    await blocked
      .getByText(`The fee receiver ${wallet.account.address} is not on the Points transfer allowlist`)
      .waitFor();
    // The wallet administers the Points token: the access change is offered, as its own transaction.
    await blocked.getByRole("button", { name: `Add ${wallet.account.address} to the transfer allowlist` }).waitFor();
    assert.equal(await page.getByRole("dialog").isVisible(), false, "nothing built");

    await form("fee-receiver").getByLabel("New fee receiver", { exact: true }).fill(pspVault);
    await form("fee-receiver").getByRole("button", { name: "Review the new receiver" }).click();
    await page.getByRole("dialog").getByTestId("tx-words").getByText("the program's Campaign vault").waitFor();
    await signInDialog(page, "settings-receiver");
    assert.equal(await factory.feeReceiver(), pspVault);
    await shows("fee-receiver-name", "the program's Campaign vault");

    await form("fees").getByLabel("Mint fee (%)", { exact: true }).fill("0.25");
    await form("fees").getByLabel("Redeem fee (%)", { exact: true }).fill("1");
    await form("fees").getByRole("button", { name: "Review the new fees" }).click();
    const words = page.getByRole("dialog").getByTestId("tx-words");
    await words.getByText("0.25% (25 bps) (now none (0 bps))").waitFor();
    await words.getByText("1% (100 bps) (now none (0 bps))").waitFor();
    await signInDialog(page, "settings-fees");
    assert.deepEqual([await factory.mintFeeBps(), await factory.redeemFeeBps()], [25n, 100n]);
    assert.equal(wallet.calls.filter((c) => c === "eth_sendTransaction").length, sent + 2);
    await shows("setting-mint-fee", "0.25% (25 bps)");
    await shows("setting-redeem-fee", "1% (100 bps)");
    await screenshot(page, "settings-after");
  });

  it("feeAbove10Percent_andADelayAbove30Days_areRefusedAtTheField", async () => {
    await form("fees").getByLabel("Mint fee (%)", { exact: true }).fill("10.01");
    await form("fees").getByRole("button", { name: "Review the new fees" }).click();
    await form("fees").getByText("Must be at most 10% (the Factory's highest fee).").waitFor();
    await form("redeem-delay").getByLabel("New redeem delay", { exact: true }).fill("31");
    await form("redeem-delay").getByLabel("Unit", { exact: true }).selectOption("days");
    await form("redeem-delay").getByRole("button", { name: "Review the new delay" }).click();
    await form("redeem-delay").getByText("Must be at most 30 days (the Factory's longest delay).").waitFor();
    assert.equal(await page.getByRole("dialog").isVisible(), false, "nothing built");
  });

  it("aWalletWithoutTheRoles_isOfferedNoForm_onlyTheRoleItLacks", async () => {
    const outsider = devWallet(7, node.provider);
    await wallet.use(outsider);
    await page.getByTestId("settings-not-allowed").first().waitFor();
    assert.equal(await form("redeem-delay").count(), 0);
    assert.equal(await form("fees").count(), 0);
    assert.equal(await form("fee-receiver").count(), 0);
    await page.getByText("Changing this takes the Manager role on the Factory").first().waitFor();
    await page.getByText("Changing this takes the Admin role on the Factory").first().waitFor();
    await auditPage(page, "settings-no-roles");
  });
});
