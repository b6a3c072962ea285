import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import * as pointsApi from "@points/api";
import { Wallet, parseEther } from "ethers";
import { DEV_KEYS, devWallet, startApi, startNode, type DevNode, type TestApi } from "@points/testkit";
import { launch, screenshot } from "./helpers/browser.js";
import { injectWallet } from "./helpers/wallet.js";
import { savedStep, signIn, signOut } from "./helpers/flow.js";
import { auditPage } from "./helpers/audit.js";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/index.html");
const EMAIL = "stranger@unapproved.example";
const USDC = "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48";
const TOKEN = {
  name: "Stranger Points",
  symbol: "STR",
  description: "Points.",
  logoUrl: "https://stranger.example/logo.png",
  websiteUrl: "https://stranger.example/points",
};
const ORGANIZATION = { name: "Stranger Ltd", website: "https://stranger.example", description: "Squatting." };
const EXECUTOR = new Wallet(DEV_KEYS[0]).address;
/** The dev chain's executor threshold: below it the engine sends nothing and tasks wait. */
const MIN_BALANCE = parseEther("1");

describe("console e2e: deploy states an operator controls, in headless Chromium", () => {
  let node: DevNode;
  let api: TestApi<pointsApi.Service>;
  let closeBrowser: (() => Promise<void>) | undefined;
  let page: Page;
  const wallet = () => devWallet(1, node.provider);
  const tasks = async () =>
    (
      await api.service.ctx.db.query<{ chain_id: string; status: string }>(
        "SELECT chain_id, status FROM onboarding_tasks ORDER BY created_at",
      )
    ).map((t) => [String(t.chain_id), t.status]);

  /** Signs in, then step 2 as a person does it: connecting the wallet proves it (SIWE). */
  async function signInAndProve() {
    await signIn(page, api.url, EMAIL);
    await page.getByRole("heading", { name: "Connect your wallet" }).waitFor();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("heading", { name: "Your organization" }).waitFor();
  }

  before(async () => {
    assert.ok(existsSync(DIST), "build the console first: pnpm --filter @points/console build");
    node = await startNode();
    api = await startApi(pointsApi, node.url, {
      // The node shares two cores with Chromium and the API: a slow answer is not an outage.
      RPC_TIMEOUT_MS: "60000",
      DEV_MAILBOX: "1",
      DEPLOY_QUOTA_PER_DAY: "2",
      // A mainnet beside the dev chain (its RPC is not needed: its deploys wait for the operator).
      EXECUTOR_PRIVATE_KEY: DEV_KEYS[0],
      CHAINS: JSON.stringify([
        {
          chainId: 31337,
          name: "Hardhat",
          rpcUrl: node.url,
          blockTimeMs: 200,
          engine: { minBalance: MIN_BALANCE.toString() },
        },
        { chainId: 8453, name: "Base", rpcUrl: "http://127.0.0.1:9", testnet: false },
      ]),
    });
    await api.service.ctx.db.query(
      "INSERT INTO chain_assets (chain_id, kind, address, label) VALUES ('8453', 'collateral', $1, 'USDC')",
      [USDC.toLowerCase()],
    );
    const b = await launch({ width: 1280, height: 860 });
    closeBrowser = b.close;
    page = b.context.pages()[0] ?? (await b.context.newPage());
    page.setDefaultTimeout(30_000);
    await injectWallet(page, node.provider, wallet());
    await page.goto(`${api.url}/console/`);
    await signIn(page, api.url, EMAIL);
    // Signing in saves step 2 from the page; wait until the server has it, or it may land after the state below.
    await page.getByRole("heading", { name: "Connect your wallet" }).waitFor();
    await savedStep(api.service.ctx.console.users, EMAIL, 2);
    // The earlier steps are covered by the walkthrough: start this account at the deploy step.
    await api.service.ctx.console.users.saveWizard(EMAIL, {
      step: 6,
      wallet: wallet().address,
      organization: ORGANIZATION,
      chainId: 31337,
      token: TOKEN,
      brand: "stranger",
    });
    await page.reload();
  });

  after(async () => {
    await closeBrowser?.();
    await api?.close();
    await node?.stop();
  });

  it("attack_anUnapprovedAccountDeploysOnTheExecutorsGas_isShownItMustBeApproved", async () => {
    await page.getByRole("heading", { name: "Deploy your program" }).waitFor();
    await page.getByRole("button", { name: "Deploy" }).click();
    await page.getByText("Your account is not approved to deploy yet").waitFor();
    await page.getByText("The operator of this service must approve your account").waitFor();
    await screenshot(page, "deploy-not-approved");
    assert.equal((await api.service.ctx.db.query("SELECT 1 FROM onboarding_tasks")).length, 0);
  });

  it("attack_anApprovedAccountNamesAWalletItNeverProved_isShownWalletNotProven", async () => {
    assert.equal(await api.service.ctx.console.users.approveDeploys(EMAIL), true);
    const alert = page.getByRole("alert", { name: "Wallet not proven" });
    await alert.waitFor();
    await page.getByRole("button", { name: "Deploy" }).click();
    await page.getByText("The admin wallet must sign a Sign-In with Ethereum message in this session").waitFor();
    await screenshot(page, "deploy-wallet-not-proven");
    assert.deepEqual(await tasks(), []);
  });

  it("afterTheWalletSignsTheSiweMessage_theSameClickDeploys", async () => {
    // The executor is below its threshold: the deploy starts, then waits (next test).
    await node.setBalance(EXECUTOR, MIN_BALANCE / 2n);
    await page.getByRole("button", { name: "Sign in with Ethereum" }).click();
    await page.getByRole("alert", { name: "Wallet not proven" }).waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Deploy" }).click();
    await page.getByRole("heading", { name: "Deploying stranger" }).waitFor();
    const rows = await tasks();
    assert.equal(rows.length, 1);
    assert.equal(rows[0][0], "31337");
  });

  it("anExecutorBelowItsThreshold_theDeployStepSaysInWordsThatItWaits_andTheDeployFinishesOnceFunded", async () => {
    const notice = page.getByRole("status", { name: "Waiting for the executor to be funded" });
    await notice.waitFor();
    await notice.getByText("work resumes by itself once the operator of this service funds it").waitFor();
    // The engine's own message names the executor and the threshold behind a disclosure.
    await notice.getByText("Details").click();
    await notice.getByText(`executor ${EXECUTOR} holds ${MIN_BALANCE / 2n} wei`).waitFor();
    assert.equal(await page.getByText("EXECUTOR_LOW_BALANCE").count(), 0, "the words, never the bare code");
    assert.deepEqual(await tasks(), [["31337", "running"]]);
    await screenshot(page, "deploy-waiting-for-funds");
    await auditPage(page, "deploy-waiting-for-funds");

    await node.setBalance(EXECUTOR, parseEther("10000"));
    await page.getByText("Status: succeeded").waitFor({ timeout: 60_000 });
    await notice.waitFor({ state: "detached" });
    assert.deepEqual(await tasks(), [["31337", "succeeded"]]);
  });

  it("signOutAndRestartOnAnotherChain_withTheSameBrand_waitsForTheOperatorWithAClearMessage", async () => {
    await page.getByRole("button", { name: "Sign out and restart" }).click();
    await page.getByRole("button", { name: "Yes, sign out and restart" }).click();
    await page.getByLabel("E-mail address", { exact: true }).waitFor();
    await signInAndProve();
    await api.service.ctx.console.users.saveWizard(EMAIL, { organization: ORGANIZATION, step: 4 });
    await page.reload();
    await page.getByRole("heading", { name: "Choose the chain" }).waitFor();
    await page.getByRole("radio", { name: /Base/ }).check();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("heading", { name: "Token and brand" }).waitFor();
    await page.getByLabel("Token name", { exact: true }).fill(TOKEN.name);
    await page.getByLabel("Token symbol", { exact: true }).fill(TOKEN.symbol);
    await page.getByLabel("Token description", { exact: true }).fill(TOKEN.description);
    await page.getByLabel("Logo URL", { exact: true }).fill(TOKEN.logoUrl);
    await page.getByLabel("Token website URL", { exact: true }).fill(TOKEN.websiteUrl);
    await page.getByLabel("Brand", { exact: true }).fill("stranger");
    // Reserved on the dev chain, free on Base: a brand is reserved per chain.
    await page.getByText("✓ stranger is available.").waitFor();
    await screenshot(page, "restart-same-brand-available");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("heading", { name: "Deploy your program" }).waitFor();
    await page.getByLabel("Collateral token address (optional)", { exact: true }).fill(USDC);
    await page.getByRole("button", { name: "Deploy" }).click();
    await page.getByRole("heading", { name: "Deploying stranger" }).waitFor();
    await page.getByText("Status: awaiting_approval").waitFor();
    await page.getByText("the deploy waits until the operator of this service approves it").waitFor();
    await screenshot(page, "deploy-awaiting-approval");
    const rows = await tasks();
    assert.equal(rows.length, 2);
    assert.deepEqual(rows[1], ["8453", "awaiting_approval"]);
  });

  it("aThirdDeployInADay_isShownTheQuotaIsReached", async () => {
    await page.getByRole("button", { name: "Sign out and restart" }).click();
    await page.getByRole("button", { name: "Yes, sign out and restart" }).click();
    await page.getByLabel("E-mail address", { exact: true }).waitFor();
    await signInAndProve();
    await api.service.ctx.console.users.saveWizard(EMAIL, {
      step: 6,
      organization: ORGANIZATION,
      chainId: 31337,
      token: TOKEN,
      brand: "strangertwo",
    });
    await page.reload();
    await page.getByRole("heading", { name: "Deploy your program" }).waitFor();
    await page.getByRole("button", { name: "Deploy" }).click();
    await page.getByText("Deploy quota reached", { exact: true }).waitFor();
    await page.getByText("Your account may start 2 deploys per 24 hours").waitFor();
    await screenshot(page, "deploy-quota-reached");
    assert.equal((await tasks()).length, 2);
  });
  it("onASlowNetwork_theWizardsOwnStep2Save_neverUndoesTheContinueAfterIt", async () => {
    await signOut(page);
    await api.service.ctx.console.users.restartWizard(EMAIL);
    // The save the wizard makes as it opens (step 2) is held until the wallet is proven and Continue was pressed.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let puts = 0;
    await page.route("**/console/v1/wizard", async (route) => {
      if (route.request().method() === "PUT" && puts++ === 0) await released;
      await route.continue();
    });
    try {
      const firstPut = page.waitForRequest((r) => r.method() === "PUT" && r.url().endsWith("/console/v1/wizard"));
      await signIn(page, api.url, EMAIL);
      await page.getByRole("heading", { name: "Connect your wallet" }).waitFor();
      await firstPut;
      const proved = page.waitForResponse((r) => r.url().endsWith("/console/v1/wallet/prove"));
      await page.getByRole("button", { name: "Continue" }).click();
      await proved;
      release();
      await page.getByRole("heading", { name: "Your organization" }).waitFor();
      await savedStep(api.service.ctx.console.users, EMAIL, 3);
      assert.equal((await api.service.ctx.console.users.get(EMAIL)).wizard.step, 3);
    } finally {
      release();
      await page.unroute("**/console/v1/wizard");
    }
  });
});
