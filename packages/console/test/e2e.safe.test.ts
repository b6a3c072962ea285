import { after, before, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ZeroAddress, id as labelHash, type Wallet } from "ethers";
import type { Page } from "playwright-core";
import { Factory__factory, PSPVault__factory } from "@points/contracts";
import * as pointsApi from "@points/api";
import { deployProgram, devSafe, devWallet, startApi, startNode, type DevNode, type TestApi } from "@points/testkit";
import { launch, screenshot } from "./helpers/browser.js";
import { steps } from "./helpers/steps.js";
import { injectWallet, type TestWallet } from "./helpers/wallet.js";
import { signIn, signInDialog, signOut, submitForm } from "./helpers/flow.js";
import { auditPage } from "./helpers/audit.js";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/index.html");
/** Where the API looks for MultiSendCallOnly v1.4.1 by default (its canonical deployment). */
const CANONICAL_MULTISEND_CALL_ONLY = "0x9641d764fc13c8B624c04430C7356C1C7C8102e2";
const CONTRACTS = ["factory", "points", "collateralVault", "pspVault"] as const;

// The steps build on each other: after a failure the rest are skipped, not failed again.
let onFailure: () => Promise<void> = async () => undefined;
const it = steps(() => onFailure());

// A program handed from its brand wallet to a real 2-of-3 Safe v1.4.1 in the console, then run by
// the Safe: proposals signed in Chromium by two different owner wallets and executed, each checked on chain.
describe("console e2e: a program run by a 2-of-3 Safe, in headless Chromium", () => {
  let node: DevNode;
  let api: TestApi<pointsApi.Service>;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let wallet: TestWallet;
  let brand: Wallet, outsider: Wallet;
  let safe: Awaited<ReturnType<typeof devSafe>>;
  let proposalUrl = "";
  let program: Awaited<ReturnType<typeof deployProgram>>["record"];
  const admins = () =>
    Promise.all(CONTRACTS.map((c) => Factory__factory.connect(program[c], node.provider).defaultAdmin()));
  const pendings = () =>
    Promise.all(
      CONTRACTS.map(async (c) => (await Factory__factory.connect(program[c], node.provider).pendingDefaultAdmin())[0]),
    );

  before(async () => {
    assert.ok(existsSync(DIST), "build the console first: pnpm --filter @points/console build");
    node = await startNode();
    brand = devWallet(1, node.provider);
    outsider = devWallet(9, node.provider);
    program = (await deployProgram(node.provider, "acme")).record;
    safe = await devSafe(node.provider);
    // The local chain has no canonical deployment: the same audited runtime code goes there.
    const code = await node.provider.getCode(safe.infra.multiSendCallOnly);
    await node.setCode(CANONICAL_MULTISEND_CALL_ONLY, code);
    // The handover reads role holders from the ledger: it follows the head of this on-demand chain.
    api = await startApi(pointsApi, node.url, {
      // The node shares two cores with Chromium and the API: a slow answer is not an outage.
      RPC_TIMEOUT_MS: "60000",
      DEV_MAILBOX: "1",
      LEDGER_CONFIRMATIONS: "0",
      LEDGER_POLL_MS: "100",
    });
    await api.service.ctx.programs.insert(program);
    const { email } = await pointsApi.createDevProgramAccount(api.service.ctx, program.factory, brand.address);
    const b = await launch({ width: 1280, height: 860 });
    closeBrowser = b.close;
    page = b.context.pages()[0] ?? (await b.context.newPage());
    page.setDefaultTimeout(30_000);
    wallet = await injectWallet(page, node.provider, brand);
    onFailure = () => screenshot(page, "safe-failure");
    await page.goto(`${api.url}/console/`);
    await signIn(page, api.url, email);
    await page.getByRole("button", { name: "Connect wallet" }).click();
    await page.getByRole("link", { name: "Safe", exact: true }).click();
  });

  after(async () => {
    await closeBrowser?.();
    await api?.close();
    await node?.stop();
  });

  it("theAdminWallet_offersTheAdminRoleToTheSafe_onTheFourContracts_stepByStepFromTheChain_andCanCancelAnOffer", async () => {
    await page.getByText("This program's admin is a wallet, not a Safe.").waitFor();
    const form = page.locator('form[data-form="handover-begin"]');
    await form.getByLabel("Safe address", { exact: true }).fill(outsider.address);
    await form.getByRole("button", { name: "Offer on the Factory (1 of 4)" }).click();
    await form.getByText("This address is not a Safe on chain 31337").waitFor();
    await form.getByLabel("Safe address", { exact: true }).fill(safe.address);
    // An offer the admin takes back: cancelled on chain, then the steps start again.
    await form.getByRole("button", { name: "Offer on the Factory (1 of 4)" }).click();
    await signInDialog(page, "safe-offer-then-cancel");
    assert.equal((await pendings())[0], safe.address);
    await page.getByRole("button", { name: "Cancel the offer on the Factory" }).click();
    await signInDialog(page, "safe-cancel");
    assert.equal((await pendings())[0], ZeroAddress);
    const words = ["Factory", "Points token", "Collateral vault", "Campaign vault"];
    for (const [i, w] of words.entries()) {
      await form.getByRole("button", { name: `Offer on the ${w} (${i + 1} of 4)` }).click();
      await signInDialog(page, `safe-offer-${i + 1}`);
    }
    assert.deepEqual(
      await pendings(),
      CONTRACTS.map(() => safe.address),
    );
    assert.deepEqual(
      await admins(),
      CONTRACTS.map(() => brand.address),
    );
    await page.getByText("Offered to the Safe").waitFor();
    await auditPage(page, "safe-handover");
  });

  it("theSafeAccepts_inOneProposal_takingTheOldAdminsRoles_signedByTwoOwners_andExecuted", async () => {
    const [first, second] = safe.owners;
    await wallet.use(first!);
    // The admin delay is 0: the offer is accepted in a later block than the last offer's.
    await page.getByText("The contracts' admin delay runs until").waitFor();
    await node.increaseTime(1);
    await node.mine();
    await page.getByRole("button", { name: "Read the chain again" }).click();
    await page.getByRole("button", { name: "Propose the acceptance" }).click();
    await page.getByRole("heading", { name: "Safe proposal" }).waitFor();
    await page.getByTestId("signature-count").getByText("1 of 2 needed, 1 missing (3 owners)").waitFor();
    const actions = page.getByRole("list", { name: "What this proposal does" });
    await actions.getByText("Accept the admin role on the Campaign vault").waitFor();
    await actions.getByText("Grant a role on the Campaign vault").first().waitFor();
    await page.getByText("Your wallet signed this proposal.").waitFor();
    await wallet.use(second!);
    await page.getByRole("button", { name: "Sign the proposal" }).click();
    await page.getByText("Ready to execute").first().waitFor();
    await page.getByRole("button", { name: "Execute", exact: true }).click();
    await signInDialog(page, "safe-accept-execute");
    await page.getByText("The Safe ran it.").waitFor();
    assert.deepEqual(
      await admins(),
      CONTRACTS.map(() => safe.address),
    );
    assert.deepEqual(
      await pendings(),
      CONTRACTS.map(() => ZeroAddress),
    );
    const vault = PSPVault__factory.connect(program.pspVault, node.provider);
    const manager = await vault.MANAGER_ROLE();
    assert.equal(await vault.hasRole(manager, safe.address), true, "the Safe took the brand's MANAGER_ROLE");
    assert.equal(await vault.hasRole(manager, brand.address), false, "the brand's MANAGER_ROLE was revoked");
    assert.equal(await vault.hasRole(await vault.DEFAULT_ADMIN_ROLE(), brand.address), false);
  });

  it("aCampaignCreatedAsTheSafe_isAProposal_aNonOwnerIsToldWhyItCannotSign_twoOwnersSignAndExecute", async () => {
    // The wallet is still the second owner, who proposes and signs; the third signs after it.
    const third = safe.owners[2]!;
    await page.getByRole("link", { name: "Campaigns", exact: true }).click();
    // An owner of the admin Safe acts for it by default.
    const actAs = page.getByLabel("Act as the Safe: actions become proposals for its owners to sign");
    assert.equal(await actAs.isChecked(), true);
    await submitForm(page, "create-campaign", { "Campaign id or label": "safe-summer", "Budget (ACME)": "0" });
    const dialog = page.getByRole("dialog");
    await dialog.getByText("it is not sent now but stored as a proposal that 2 of its 3 owners must sign").waitFor();
    await dialog.getByRole("button", { name: "Sign and propose" }).click();
    await dialog.getByText("Your signature is in. 1 more signature is needed.").waitFor();
    await dialog.getByRole("link", { name: "Open the proposal" }).click();
    await page.getByRole("heading", { name: "Safe proposal" }).waitFor();
    const actions = page.getByRole("list", { name: "What this proposal does" });
    await actions.getByText("Create a campaign on the Campaign vault").waitFor();
    await actions.getByText("safe-summer", { exact: true }).waitFor();
    await actions.getByText("0 ACME").waitFor();
    await auditPage(page, "safe-proposal");
    proposalUrl = page.url();

    await wallet.use(outsider);
    await page
      .getByTestId("not-owner")
      .getByText("Your wallet is not an owner of this Safe, so it cannot sign this proposal.")
      .waitFor();
    assert.equal(await page.getByRole("button", { name: "Sign the proposal" }).count(), 0);
    assert.equal(await page.getByRole("button", { name: "Execute", exact: true }).count(), 0);

    await wallet.use(third);
    await page.getByRole("button", { name: "Sign the proposal" }).click();
    await page.getByTestId("signature-count").getByText("2 of 2 needed (3 owners)").waitFor();
    await page.getByRole("button", { name: "Execute", exact: true }).click();
    await signInDialog(page, "safe-campaign-execute");
    const c = await PSPVault__factory.connect(program.pspVault, node.provider).getCampaign(labelHash("safe-summer"));
    assert.equal(c.status, 1n, "Active");
    assert.equal(c.creator, safe.address, "the Safe created it");
  });

  it("theSafePage_listsExecutedProposals_inWords_atBothWidths", async () => {
    await page.getByRole("link", { name: "← All proposals" }).click();
    const list = page.getByRole("list", { name: "Safe proposals" });
    await list.getByRole("link", { name: /^Executed Create a campaign on the Campaign vault$/ }).waitFor();
    await list
      .getByRole("link", { name: /^Executed Accept the admin role on the Factory and 23 more actions$/ })
      .waitFor();
    await screenshot(page, "safe-proposals");
    await auditPage(page, "safe-page");
  });

  it("attack_anotherConsoleAccountOfTheSameProgram_opensTheProposalsUrl_andSeesNotFound_andNoProposal", async () => {
    const { email } = await pointsApi.createDevProgramAccount(api.service.ctx, program.factory, outsider.address);
    await signOut(page);
    await signIn(page, api.url, email);
    await page.getByRole("link", { name: "Safe", exact: true }).waitFor();
    await page.goto(proposalUrl);
    await page.getByText("This proposal does not exist here.").waitFor();
    await page.getByRole("link", { name: "Safe", exact: true }).click();
    await page.getByText("No proposal yet.").waitFor();
  });
});
