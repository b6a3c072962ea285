import { after, before, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { setTimeout as sleep } from "node:timers/promises";
import { NonceManager, parseUnits, type Wallet } from "ethers";
import type { Page } from "playwright-core";
import { PSPVault__factory, Points__factory } from "@points/contracts";
import * as pointsApi from "@points/api";
import {
  deployProgram,
  devSafe,
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
import { auditPage } from "./helpers/audit.js";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/index.html");
const SP = (n: number) => parseUnits(String(n), 18);
const ROLE_WORDS = "Settlement admin on the Campaign vault";

let onFailure: () => Promise<void> = async () => undefined;
const it = steps(() => onFailure());

// A Safe that holds a role other than the admin's: SETTLEMENT_ADMIN_ROLE of the Campaign vault sits
// in a real 2-of-3 Safe v1.4.1 while the brand wallet stays the admin. An owner's settle becomes a
// proposal to that Safe, a second owner signs, it executes; a wallet that owns no Safe sends its own.
describe("console e2e: a 2-of-3 Safe holding SETTLEMENT_ADMIN_ROLE settles, in headless Chromium", () => {
  let node: DevNode;
  let api: TestApi<pointsApi.Service>;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let wallet: TestWallet;
  let brand: Wallet, bob: Wallet, carol: Wallet, outsider: Wallet;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  let program: Awaited<ReturnType<typeof deployProgram>>["record"];
  let campaignId = "";
  let campaignUrl = "";
  const vault = () => PSPVault__factory.connect(program.pspVault, node.provider);
  const balances = async () => ({
    bob: await vault().balanceOf(campaignId, bob.address),
    carol: await Points__factory.connect(program.points, node.provider).balanceOf(carol.address),
  });
  /** Proposals the service stores for any Safe (the console account's and every other). */
  const proposals = async () => (await api.service.ctx.db.query("SELECT id FROM safe_proposals")).length;

  before(async () => {
    assert.ok(existsSync(DIST), "build the console first: pnpm --filter @points/console build");
    node = await startNode();
    [brand, bob, carol, outsider] = [1, 3, 4, 9].map((i) => devWallet(i, node.provider));
    const deployed = await deployProgram(node.provider, "acme");
    program = deployed.record;
    ({ campaignId } = await fundedCampaign(node.provider, program, deployed.usdc, "spring", 100n));
    // The brand (every role) issues bob 10 pSP and lets carol receive SP; the Safe gets the settlement role.
    safe = await devSafe(node.provider);
    const b = new NonceManager(brand);
    const v = PSPVault__factory.connect(program.pspVault, b);
    await (await v.mint(campaignId, bob.address, SP(10), "")).wait();
    await (await v.updateSettlementWhitelist(campaignId, carol.address, true)).wait();
    await (await Points__factory.connect(program.points, b).addToTransferWhitelist(carol.address)).wait();
    await (await v.grantRole(await v.SETTLEMENT_ADMIN_ROLE(), safe.address)).wait();
    assert.equal(await vault().hasRole(await v.SETTLEMENT_ADMIN_ROLE(), safe.address), true);
    api = await startApi(pointsApi, node.url, {
      // The node shares two cores with Chromium and the API: a slow answer is not an outage.
      RPC_TIMEOUT_MS: "60000",
      DEV_MAILBOX: "1",
      LEDGER_CONFIRMATIONS: "0",
      LEDGER_POLL_MS: "100",
    });
    await api.service.ctx.programs.insert(program);
    const { email } = await pointsApi.createDevProgramAccount(api.service.ctx, program.factory, brand.address);
    const browser = await launch({ width: 1280, height: 860 });
    closeBrowser = browser.close;
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(30_000);
    wallet = await injectWallet(page, node.provider, safe.owners[0]!);
    onFailure = () => screenshot(page, "safe-roles-failure");
    await page.goto(`${api.url}/console/`);
    await signIn(page, api.url, email);
    await page.getByRole("button", { name: "Connect wallet" }).click();
    campaignUrl = `${api.url}/console/program/campaigns/${campaignId}`;
  });

  after(async () => {
    await closeBrowser?.();
    await api?.close();
    await node?.stop();
  });

  /**
   * Opens the campaign once the ledger holds the Safe's grant (the Safes notice reads it from the ledger):
   * waits on that state, not on a page load racing the indexer.
   */
  const openCampaign = async () => {
    const indexed = async () =>
      (
        await api.service.ctx.db.query("SELECT 1 FROM ledger_role_holders WHERE lower(account) = lower($1) AND held", [
          safe.address,
        ])
      ).length > 0;
    // A bound for a broken indexer only: the wait ends as soon as the grant is indexed.
    for (const started = Date.now(); !(await indexed()); await sleep(100)) {
      assert.ok(Date.now() - started < 300_000, "the ledger never indexed the Safe's SETTLEMENT_ADMIN_ROLE grant");
    }
    await page.goto(campaignUrl);
    await page.getByRole("list", { name: "Safes holding roles" }).getByText(`holds ${ROLE_WORDS}.`).waitFor();
  };

  it("anOwner_settles4Sp_asAProposalToTheSettlementSafe_aSecondOwnerSigns_andItExecutes_checkedOnChain", async () => {
    // The wallet is the first owner (injected so in the fixture); the second signs after it.
    const second = safe.owners[1]!;
    await openCampaign();
    const actAs = page.getByTestId("act-as");
    await actAs.getByText("your wallet is an owner").waitFor();
    // The brand wallet is the admin: no admin Safe is named.
    assert.equal(await actAs.getByText("This program's admin is a Safe").count(), 0);
    const form = page.locator('form[data-form="settle"]');
    await form
      .getByTestId("acting-safe")
      .getByText("which holds the Settlement admin role on the Campaign vault")
      .waitFor();
    const before = await balances();
    await submitForm(page, "settle", { Holder: bob.address, Receiver: carol.address, "Amount (pSP)": "4" });
    const dialog = page.getByRole("dialog");
    await dialog.getByText("which holds the Settlement admin role on the Campaign vault").waitFor();
    await dialog.getByText("it is not sent now but stored as a proposal that 2 of its 3 owners must sign").waitFor();
    assert.equal(await dialog.getByRole("button", { name: "Sign and send" }).count(), 0);
    await dialog.getByRole("button", { name: "Sign and propose" }).click();
    await dialog.getByText("Your signature is in. 1 more signature is needed.").waitFor();
    await dialog.getByRole("link", { name: "Open the proposal" }).click();
    await page.getByRole("heading", { name: "Safe proposal" }).waitFor();
    const actions = page.getByRole("list", { name: "What this proposal does" });
    await actions.getByText("Settle pSP on the Campaign vault").waitFor();
    // pSP settled reads as pSP (the token's own symbol is for SP), and in points, not wei.
    await actions.getByText("4 pSP", { exact: true }).waitFor();
    await page.getByTestId("signature-count").getByText("1 of 2 needed, 1 missing (3 owners)").waitFor();
    assert.deepEqual(await balances(), before, "a proposal moves nothing");

    await wallet.use(second);
    await page.getByRole("button", { name: "Sign the proposal" }).click();
    await page.getByText("Ready to execute").first().waitFor();
    await page.getByRole("button", { name: "Execute", exact: true }).click();
    await signInDialog(page, "safe-roles-settle-execute");
    await page.getByText("The Safe ran it.").waitFor();
    assert.equal(await proposals(), 1);
    const now = await balances();
    assert.equal(before.bob - now.bob, SP(4), "bob's pSP went down by 4");
    assert.equal(now.carol - before.carol, SP(4), "carol received 4 SP");

    await page.getByRole("link", { name: "← All proposals" }).click();
    const list = page.getByRole("list", { name: "Safe proposals" });
    await list.getByRole("link", { name: /^Executed Settle pSP on the Campaign vault$/ }).waitFor();
    await list.getByText(`(${ROLE_WORDS})`).waitFor();
    await page
      .getByRole("region", { name: `Safe ${safe.address}` })
      .getByText(ROLE_WORDS)
      .waitFor();
    await auditPage(page, "safe-roles-page");
  });

  it("aWalletOwningNoSafe_sendsTheSettleFromItself_notAProposal_andAWalletWithoutTheRole_isRefusedMissingRole", async () => {
    const count = await proposals();
    await wallet.use(brand);
    await openCampaign();
    await page.getByText("Your wallet is not one of their owners").waitFor();
    const form = page.locator('form[data-form="settle"]');
    assert.equal(await form.getByTestId("acting-safe").count(), 0);
    const before = await balances();
    await submitForm(page, "settle", { Holder: bob.address, Receiver: carol.address, "Amount (pSP)": "1" });
    const receipt = await signInDialog(page, "safe-roles-wallet-settle");
    assert.match(receipt, new RegExp(brand.address, "i"), "signed by the brand wallet");
    const now = await balances();
    assert.equal(before.bob - now.bob, SP(1));
    assert.equal(now.carol - before.carol, SP(1));

    await wallet.use(outsider);
    await page.getByText("Your wallet is not one of their owners").waitFor();
    await submitForm(page, "settle", { Holder: bob.address, Receiver: carol.address, "Amount (pSP)": "1" });
    const dialog = page.getByRole("dialog");
    await dialog.getByText("Missing SETTLEMENT_ADMIN_ROLE").waitFor();
    assert.equal(await dialog.getByRole("button", { name: /propose/i }).count(), 0);
    assert.equal(await dialog.getByRole("button", { name: "Sign and send" }).count(), 0);
    await dialog.getByRole("button", { name: "Close" }).click();
    assert.deepEqual(await balances(), now, "nothing moved");
    assert.equal(await proposals(), count, "no proposal was stored");
  });
});
