import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import * as pointsApi from "@points/api";
import { devWallet, startApi, startNode, type DevNode, type TestApi } from "@points/testkit";
import { launch, screenshot } from "./helpers/browser.js";
import { injectWallet } from "./helpers/wallet.js";
import { signIn } from "./helpers/flow.js";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/index.html");
const EMAIL = "stranger@unapproved.example";

describe("console e2e: deploy states an operator controls, in headless Chromium", () => {
  let node: DevNode;
  let api: TestApi<pointsApi.Service>;
  let closeBrowser: (() => Promise<void>) | undefined;
  let page: Page;

  before(async () => {
    assert.ok(existsSync(DIST), "build the console first: pnpm --filter @points/console build");
    node = await startNode();
    api = await startApi(pointsApi, node.url, { DEV_MAILBOX: "1" });
    const b = await launch({ width: 1280, height: 860 });
    closeBrowser = b.close;
    page = b.context.pages()[0] ?? (await b.context.newPage());
    page.setDefaultTimeout(30_000);
    const wallet = devWallet(1, node.provider);
    await injectWallet(page, node.provider, wallet);
    await page.goto(`${api.url}/console/`);
    await signIn(page, api.url, EMAIL);
    // Signing in saves step 2 from the page; wait for it, or it may land after the state below.
    await page.getByRole("heading", { name: "Connect your wallet" }).waitFor();
    // The earlier steps are covered by the walkthrough: start this account at the deploy step.
    await api.service.ctx.console.users.saveWizard(EMAIL, {
      step: 6,
      wallet: wallet.address,
      organization: { name: "Stranger Ltd", website: "https://stranger.example", description: "Squatting." },
      chainId: 31337,
      token: {
        name: "Stranger Points",
        symbol: "STR",
        description: "Points.",
        logoUrl: "https://stranger.example/logo.png",
        websiteUrl: "https://stranger.example/points",
      },
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

  it("afterTheOperatorApproves_theSameClickDeploys", async () => {
    assert.equal(await api.service.ctx.console.users.approveDeploys(EMAIL), true);
    await page.getByRole("button", { name: "Deploy" }).click();
    await page.getByRole("heading", { name: "Deploying stranger" }).waitFor();
  });
});
