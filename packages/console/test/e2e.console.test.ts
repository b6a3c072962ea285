import { after, before, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { id as labelHash, parseUnits, type Wallet } from "ethers";
import type { Page } from "playwright-core";
import { Factory__factory, MockStablecoin__factory, PSPVault__factory, Points__factory } from "@points/contracts";
import * as pointsApi from "@points/api";
import { devWallet, startApi, startNode, type DevNode, type TestApi } from "@points/testkit";
import { launch, screenshot, watchProblems, type PageProblem } from "./helpers/browser.js";
import { steps } from "./helpers/steps.js";
import { injectWallet, type TestWallet } from "./helpers/wallet.js";
import { signInDialog, submitForm } from "./helpers/flow.js";
import { auditPage } from "./helpers/audit.js";
import * as actions from "./helpers/actions.js";
import { press } from "./helpers/keyboard.js";
import {
  closedMoneyThenExpireAfterClose,
  issueBeforeClose,
  overviewPictures,
  settledMoneyAndBurnDown,
} from "./helpers/money.js";
import { expectApprovalToken, mintToAnUnlistedReceiver, mintWithoutCollateral } from "./helpers/preflight.js";
import { redemptionWalk } from "./helpers/redemption.js";
import { handled } from "./helpers/problems.js";
import { campaignTabs } from "./helpers/tabs.js";
import * as wizard from "./helpers/wizard.js";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/index.html");
const SP = (n: string) => parseUnits(n, 18);

// The steps build on each other: after a failure the rest are skipped, not failed again.
const it = steps();

describe("console e2e: the nine wizard steps and the dashboard in headless Chromium", () => {
  let node: DevNode;
  let api: TestApi<pointsApi.Service>;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let wallet: TestWallet;
  let problems: PageProblem[];
  let brand: Wallet, minter: Wallet, alice: Wallet;
  let program: { factory: string; points: string; pspVault: string };

  before(async () => {
    assert.ok(existsSync(DIST), "build the console first: pnpm --filter @points/console build");
    node = await startNode();
    [brand, minter, alice] = [1, 2, 3].map((i) => devWallet(i, node.provider));
    // The operator lets this e-mail domain deploy (accounts are otherwise approved one by one).
    // The dashboard reads lists from the ledger: on this chain, which mines only on demand, it
    // follows the head (no confirmation depth) so a write shows without waiting for later blocks.
    api = await startApi(pointsApi, node.url, {
      // The node shares two cores with Chromium and the API: a slow answer is not an outage.
      RPC_TIMEOUT_MS: "60000",
      CONSOLE_DEPLOY_DOMAINS: "example.com",
      DEV_MAILBOX: "1",
      LEDGER_CONFIRMATIONS: "0",
      LEDGER_POLL_MS: "100",
    });
    const b = await launch({ width: 1280, height: 860 });
    closeBrowser = b.close;
    page = b.context.pages()[0] ?? (await b.context.newPage());
    page.setDefaultTimeout(30_000);
    problems = watchProblems(page);
    wallet = await injectWallet(page, node.provider, brand);
  });

  const walk = (): actions.Walk => ({ page, api, node, program, brand, alice, wallet });
  const atWizard = (): wizard.WizardWalk => ({ page, api, wallet, brand });

  after(async () => {
    await closeBrowser?.();
    await api?.close();
    await node?.stop();
  });

  it("step1_signsInWithTheCodeFromTheDevMailbox", () => wizard.signInWithTheMailedCode(atWizard()));
  it("step2_connectsTheInjectedWallet_andSavesItsAddress", () => wizard.connectTheWallet(atWizard()));
  // Steps 3 to 5 and the first dashboard action are walked with the keyboard only (Tab, typing, Enter, Space).
  it("step3_validatesTheOrganization_thenSavesIt_keyboardOnly", () => wizard.organization(atWizard()));
  it("signOut_thenSignIn_resumesAtTheSameStep", () => wizard.resumeAfterSignOut(atWizard()));
  it("step4_choosesTheTestChain_keyboardOnly", () => wizard.chooseTheChain(atWizard()));
  it("step5_configuresTheToken_andChecksTheBrandAsYouType_keyboardOnly", () => wizard.tokenAndBrand(atWizard()));
  it("step6_startsTheDeploy_andLocksTheChain", () => wizard.startTheDeploy(atWizard()));
  it("step7_pollsTheTask_andShowsEachStageWithItsTransaction", () => wizard.deployProgress(atWizard()));
  it("step8_showsTheContracts_withLocalChainNoExplorer_andResumesAfterSignOut", async () => {
    program = await wizard.contracts(atWizard());
  });
  it("step9_landsOnTheDashboard_withTheWalletsRoles", () => wizard.dashboard(atWizard()));

  it("allowlists_addTheBrandToTheMintAndTransferLists_andAliceToTransfer_firstOneKeyboardOnly", async () => {
    await press(page, page.getByRole("link", { name: "Allowlists", exact: true }));
    await page.waitForURL(`${api.url}/console/program/allowlists`);
    await auditPage(page, "dashboard-allowlists");
    await press(page, page.getByRole("button", { name: "Use my wallet" }));
    await press(page, page.getByRole("button", { name: "Add to mint" }));
    const dialog = page.getByRole("dialog");
    await press(page, dialog.getByRole("button", { name: "Sign and send" }));
    await dialog.getByText("Confirmed").waitFor();
    await press(page, dialog.getByRole("button", { name: "Done" }));
    await dialog.waitFor({ state: "hidden" });
    await page.getByRole("button", { name: "Remove from mint" }).waitFor();
    assert.equal(await Factory__factory.connect(program.factory, node.provider).isMintWhitelisted(brand.address), true);

    await page.getByRole("button", { name: "Add to transfer" }).click();
    await signInDialog(page, "allowlist-transfer");
    await page.getByLabel("Address", { exact: true }).fill(alice.address);
    await page.getByRole("button", { name: "Check", exact: true }).click();
    await page.getByRole("table", { name: `Allowlists of ${alice.address}` }).waitFor();
    await page.getByRole("button", { name: "Add to transfer" }).click();
    await signInDialog(page, "allowlist-transfer-alice");
    const points = Points__factory.connect(program.points, node.provider);
    assert.equal(await points.isTransferWhitelisted(brand.address), true);
    assert.equal(await points.isTransferWhitelisted(alice.address), true);
  });

  it("overview_mintSpWithoutCollateral_saysSoBeforeAnyApproval", () => mintWithoutCollateral(walk()));

  it("overview_offersCappedTestCollateral_onTheDevChainsMockStablecoin_signedByTheWallet", async () => {
    const state = await api.call("GET", `/api/v1/evm/factory/state?program=${wizard.BRAND}`);
    const { asset: usdc, symbol } = state.body.data.assets[0] as { asset: string; symbol: string };
    const token = MockStablecoin__factory.connect(usdc, node.provider);
    const before = await token.balanceOf(brand.address);
    const sent = wallet.calls.filter((m) => m === "eth_sendTransaction").length;
    await page.getByRole("link", { name: "Overview", exact: true }).click();
    // Over the cap: refused before anything reaches the wallet.
    await submitForm(page, "test-collateral", { [`Amount (${symbol})`]: "10001" });
    // The headline paragraph (the same text is also under the raw-error disclosure).
    await page
      .getByRole("dialog")
      .getByRole("paragraph")
      .filter({ hasText: "Test collateral is capped at 10000 tokens per mint." })
      .waitFor();
    await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
    await submitForm(page, "test-collateral", { [`Amount (${symbol})`]: "1000" });
    const text = await signInDialog(page, "test-collateral");
    assert.match(text, /mint/);
    assert.equal(await token.balanceOf(brand.address), before + 1_000_000_000n);
    assert.equal(wallet.calls.filter((m) => m === "eth_sendTransaction").length, sent + 1);
  });

  it("overview_mintToAReceiverOffTheTransferAllowlist_saysSoBeforeAnyApproval_andOffersTheChange", () =>
    mintToAnUnlistedReceiver(walk()));

  it("overview_mintsSp_afterTheCollateralApprovalItAsksForFirst", async () => {
    const state = await api.call("GET", `/api/v1/evm/factory/state?program=${wizard.BRAND}`);
    const { symbol } = state.body.data.assets[0] as { asset: string; symbol: string };
    await submitForm(page, "mint-sp", { [`Collateral amount (${symbol})`]: "1000" });
    await page.getByText("This needs another transaction first").waitFor();
    await expectApprovalToken(page, state.body.data.assets[0].asset, `1,000 ${symbol}`);
    // The spender by the program contract's name, beside its address.
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("approval-token").filter({ hasText: "for the spender the Factory 0x" }).waitFor();
    await dialog
      .getByTestId("approval-token")
      .getByRole("button", { name: `Copy ${program.factory}` })
      .waitFor();
    await screenshot(page, "mint-sp-approval");
    await dialog.getByRole("button", { name: "Sign approval" }).click();
    // The mint's review names the connected wallet, as receiver and as signer.
    const review = dialog.getByRole("list", { name: "What this transaction does" });
    await review.filter({ hasText: "SP goes to" }).filter({ hasText: "your wallet 0x" }).waitFor();
    const signer = await dialog.locator("dl.kv dt:text-is('Signer') + dd").first().innerText();
    const me = brand.address;
    assert.equal(signer.replace(/\s+/g, " ").trim(), `your wallet ${me.slice(0, 6)}…${me.slice(-4)} ${me} Copy`);
    await signInDialog(page, "mint-sp");
    assert.equal(await Points__factory.connect(program.points, node.provider).balanceOf(brand.address), SP("1000"));
    await page
      .getByTestId("sp-supply")
      .filter({ hasText: /^1,000 ACME$/ })
      .waitFor();
  });

  it("campaigns_createsACampaignFundedFromTheWallet_afterTheSpApproval", async () => {
    await page.getByRole("link", { name: "Campaigns", exact: true }).click();
    await submitForm(page, "create-campaign", {
      "Campaign id or label": "summer",
      "Budget (ACME)": "500",
      "Settlement destinations": alice.address,
      Metadata: "Summer promotion",
    });
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Sign approval" }).click();
    // The review reads in words: the budget in the token's units and symbol, the campaign by its label.
    const review = dialog.getByRole("list", { name: "What this transaction does" });
    await review.getByText("Create a campaign on the Campaign vault").waitFor();
    await review.getByText("500 ACME", { exact: true }).waitFor();
    await review.getByText("summer", { exact: true }).waitFor();
    await signInDialog(page, "create-campaign");
    const c = await PSPVault__factory.connect(program.pspVault, node.provider).getCampaign(labelHash("summer"));
    assert.equal(c.budget, SP("500"));
    await page
      .getByTestId("campaign-available")
      .filter({ hasText: /^500 ACME$/ })
      .waitFor();
    // Words, not the raw id, creator and JSON: the name, the creator by name, the metadata as fields.
    assert.equal(await page.getByTestId("campaign-name").innerText(), "summer");
    const short = `${brand.address.slice(0, 6)}…${brand.address.slice(-4)}`;
    assert.equal(await page.getByTestId("campaign-creator").textContent(), `Your wallet ${short}${brand.address}Copy`);
    const fields = page.getByTestId("campaign");
    assert.equal(
      await fields
        .locator("dt", { hasText: /^Note$/ })
        .locator("+ dd")
        .innerText(),
      "Summer promotion",
    );
    assert.equal(await fields.getByText("Raw metadata", { exact: true }).count(), 1);
    await page
      .getByRole("img", {
        name: "Budget burn-down: ACME available to issue over time, in ACME; the figures are in the table below",
        exact: true,
      })
      .waitFor();
  });

  it("campaigns_actionsSitInTabs_keyboardNavigable_theChosenTabInTheUrl", () => campaignTabs(walk()));

  it("campaigns_configuresADelegatedMinter_withItsLimit", async () => {
    await submitForm(page, "configure-minter", { "Minter address": minter.address, "Limit (pSP)": "100" });
    await signInDialog(page, "configure-minter");
    const cfg = await PSPVault__factory.connect(program.pspVault, node.provider).getMinterConfig(
      labelHash("summer"),
      minter.address,
    );
    assert.deepEqual([cfg.limit, cfg.issued, cfg.active], [SP("100"), 0n, true]);
  });

  it("campaigns_delegatedMinterIssuesPsp_fromItsOwnWallet", async () => {
    await wallet.use(minter);
    await page.locator(".chip", { hasText: minter.address.slice(0, 6) }).waitFor();
    await submitForm(page, "issue-psp", { Holder: alice.address, "Amount (pSP)": "40" });
    const text = await signInDialog(page, "issue-psp");
    assert.match(text, new RegExp(minter.address, "i"));
    const vault = PSPVault__factory.connect(program.pspVault, node.provider);
    assert.equal(await vault.balanceOf(labelHash("summer"), alice.address), SP("40"));
    assert.equal((await vault.getMinterConfig(labelHash("summer"), minter.address)).issued, SP("40"));
    // The minters' table is on its own tab.
    await page.getByRole("tab", { name: "Minters", exact: true }).click();
    await page
      .getByRole("row", { name: new RegExp(minter.address) })
      .getByText("40 ACME")
      .waitFor();
  });

  it("campaigns_showTheDecodedRevert_whenTheMinterPassesItsLimit", async () => {
    await submitForm(page, "issue-psp", { Holder: alice.address, "Amount (pSP)": "70" });
    const alert = page.getByRole("dialog").getByRole("alert");
    // A sentence that says what to do; the decoded error itself behind a disclosure.
    await alert
      .getByText(
        "This minter has 60 ACME left to issue (limit 100 ACME, 40 ACME issued); 70 ACME would exceed it. Raise its limit or issue at most 60 ACME.",
      )
      .waitFor();
    await alert.getByText("Technical details").click();
    await alert.locator("code", { hasText: /^MinterLimitExceeded\(/ }).waitFor();
    await screenshot(page, "issue-psp-limit-error");
    assert.doesNotMatch(await alert.innerText(), /\bat \w+ \(|Error:/);
    await page.getByRole("dialog").getByRole("button", { name: "Close" }).click();
    await wallet.use(brand);
  });

  it("campaigns_settlesPspToSp_forTheHolder", async () => {
    await page.locator(".chip", { hasText: brand.address.slice(0, 6) }).waitFor();
    await submitForm(page, "settle", {
      Holder: alice.address,
      Receiver: alice.address,
      "Amount (pSP)": "40",
    });
    await signInDialog(page, "settle");
    const vault = PSPVault__factory.connect(program.pspVault, node.provider);
    assert.equal(await vault.balanceOf(labelHash("summer"), alice.address), 0n);
    assert.equal(await Points__factory.connect(program.points, node.provider).balanceOf(alice.address), SP("40"));
    await page
      .getByTestId("campaign-outstanding")
      .filter({ hasText: /^0 pSP$/ })
      .waitFor();
    await settledMoneyAndBurnDown(walk());
    await screenshot(page, "campaign-after-settle");
    await auditPage(page, "dashboard-campaign");
  });

  it("overview_picturesOfTheProgram_fromTheLedger", () => overviewPictures(walk(), minter.address));

  it("mistake_overBudget_saysHowMuchIsLeftAndWhatToDo", () => actions.overBudget(walk()));

  it("mistake_mistypedAddress_isCaughtAtTheField_beforeAnythingIsBuilt", () => actions.mistypedAddress(walk()));

  it("roles_listsWhoHoldsWhat_fromTheLedger", async () => {
    await page.getByRole("link", { name: "Roles", exact: true }).click();
    await page
      .getByRole("row", { name: /Campaign vault.*Issuing admin/ })
      .getByText(brand.address)
      .waitFor();
    await screenshot(page, "roles");
    await auditPage(page, "dashboard-roles");
    await page.getByRole("link", { name: "Redemption", exact: true }).click();
    await page.waitForURL(`${api.url}/console/program/redemption`);
    await auditPage(page, "dashboard-redemption");
  });

  it("redemption_allowlistOfferedAsItsOwnAccessChange_thenRequestCancelAndFinalize_checkedOnChain", () =>
    redemptionWalk(walk()));

  it("redemptionDesk_theManagerSetsManual_thenRejectsARequestWithAReason_andTheExecutorRejectsIt", async () => {
    // A pending request of the brand wallet (set up straight through ethers).
    const factory = Factory__factory.connect(program.factory, brand);
    await (await factory.addToRedeemWhitelist(brand.address)).wait();
    await (await Points__factory.connect(program.points, brand).approve(program.factory, SP("1"))).wait();
    const asset = (await factory.assets())[0]!;
    await (await factory.requestRedeem(asset, brand.address, SP("1"), false)).wait();
    const requestId = await factory.redeemRequestCount();
    await page.getByRole("link", { name: "Redemption desk", exact: true }).click();
    await page.waitForURL(`${api.url}/console/program/redemption-desk`);
    await page.getByText("The executor does nothing for this program.").waitFor();
    await page.getByRole("radio", { name: /^Manual/ }).click();
    await page.getByText("The executor acts by this policy.").waitFor();
    await page.getByRole("textbox", { name: `Reason to reject #${requestId}` }).fill("duplicate request");
    await page.getByRole("button", { name: "Reject" }).click();
    await page.getByText("rejected: duplicate request").waitFor();
    for (let i = 0; Number((await factory.getRedeemRequest(requestId)).status) !== 4; i++) {
      assert.ok(i < 100, "the executor did not reject the request");
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(wallet.calls.filter((m) => m === "eth_signTypedData_v4").length >= 2);
    await screenshot(page, "redemption-desk");
  });

  it("urls_deepLinksReloadAndBackKeepThePlace_unknownPlacesAreNotFound", async () => {
    const summer = labelHash("summer");
    await page.getByRole("link", { name: "Campaigns", exact: true }).click();
    await page.waitForURL(`${api.url}/console/program/campaigns`);
    await page.getByRole("table", { name: "Campaigns" }).getByRole("button", { name: "summer" }).click();
    await page.waitForURL(`${api.url}/console/program/campaigns/${summer}`);
    await page.reload();
    const onChain = await PSPVault__factory.connect(program.pspVault, node.provider).getCampaign(summer);
    assert.equal(onChain.available, SP("460"), "500 SP budget less the 40 SP issued");
    await page
      .getByTestId("campaign-available")
      .filter({ hasText: /^460 ACME$/ })
      .waitFor();
    await page.goBack();
    await page.waitForURL(`${api.url}/console/program/campaigns`);
    await page.getByText("Select or create a campaign to manage it.").waitFor();
    await auditPage(page, "dashboard-campaigns");
    for (const path of [
      `program/campaigns/0x${"0".repeat(63)}1`,
      "program/nope",
      "program/overview/extra",
      "nowhere",
    ]) {
      await page.goto(`${api.url}/console/${path}`);
      await page.getByRole("heading", { name: "Not found" }).waitFor();
      assert.equal(await page.locator("form").count(), 0, `${path} shows no form`);
    }
    await auditPage(page, "not-found");
    // The wizard is done: its URL leads to the program.
    await page.goto(`${api.url}/console/setup/deploy`);
    await page.waitForURL(`${api.url}/console/program/overview`);
  });

  it("campaigns_fundsTheBudget_fromTheWallet", () => actions.fund(walk()));

  it("campaigns_expiresPspBackIntoTheBudget", () => actions.expire(walk()));

  it("campaigns_issuesPspThatOutlivesTheCampaign", () => issueBeforeClose(walk()));

  it("campaigns_closesForGood_confirmedAsDestructive_andTheBudgetGoesBack", () => actions.close(walk()));

  it("campaigns_aClosedCampaignsMoneyAddsUp_returnedAtClose_thenExpiredAfterClose", () =>
    closedMoneyThenExpireAfterClose(walk()));

  it("roles_pauseAndUnpause_confirmedAsDestructive_checkedOnChain", () => actions.pauseAndUnpause(walk()));

  it("roles_grantAndRevoke_checkedOnChain", () => actions.grantAndRevoke(walk()));

  it("everyWrite_wasSignedThroughEthSendTransaction_andThePageLoggedNoErrors", () => {
    assert.ok(wallet.calls.filter((m) => m === "eth_sendTransaction").length >= 9);
    assert.deepEqual(
      problems.filter((p) => !handled(p)),
      [],
    );
  });
});
