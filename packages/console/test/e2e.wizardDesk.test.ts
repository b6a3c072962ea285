import { after, before, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import { Wallet } from "ethers";
import { Factory__factory } from "@points/contracts";
import * as pointsApi from "@points/api";
import { DEV_KEYS, devWallet, startApi, startNode, type DevNode, type TestApi } from "@points/testkit";
import { launch, screenshot } from "./helpers/browser.js";
import { injectWallet } from "./helpers/wallet.js";
import { signIn, savedStep } from "./helpers/flow.js";
import { auditPage } from "./helpers/audit.js";
import { press, tabTo, typeInto } from "./helpers/keyboard.js";
import { steps } from "./helpers/steps.js";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/index.html");
const EXECUTOR = new Wallet(DEV_KEYS[0]).address;
const ORGANIZATION = { name: "Desk Ltd", website: "https://desk.example", description: "Redeems." };
const TOKEN = {
  name: "Desk Points",
  symbol: "DSK",
  description: "Points.",
  logoUrl: "https://desk.example/logo.png",
  websiteUrl: "https://desk.example/points",
};
/** The wizard's choices in the order they are listed; arrow keys move through them. */
const CHOICES = ["Decide later (default)", "Automatic", "Manual", "Off"] as const;

const it = steps();

describe("console e2e: the redemption desk chosen in the wizard, in headless Chromium", () => {
  let node: DevNode;
  let api: TestApi<pointsApi.Service>;
  let closeBrowser: (() => Promise<void>) | undefined;
  let page: Page;

  before(async () => {
    assert.ok(existsSync(DIST), "build the console first: pnpm --filter @points/console build");
    node = await startNode();
    api = await startApi(pointsApi, node.url, {
      // The node shares two cores with Chromium and the API: a slow answer is not an outage.
      RPC_TIMEOUT_MS: "60000",
      CONSOLE_DEPLOY_DOMAINS: "example.com",
      DEV_MAILBOX: "1",
      EXECUTOR_PRIVATE_KEY: DEV_KEYS[0],
      // The desk page shows the operator's bounds as the API answers them.
      DESK_GAS_BUDGET_PER_DAY: "40000000",
      DESK_MIN_REDEEM_AMOUNT: "2500000000000000000",
      LEDGER_CONFIRMATIONS: "0",
      LEDGER_POLL_MS: "100",
    });
    const b = await launch({ width: 1280, height: 860 });
    closeBrowser = b.close;
    page = b.context.pages()[0] ?? (await b.context.newPage());
    page.setDefaultTimeout(30_000);
    await injectWallet(page, node.provider, devWallet(1, node.provider));
  });

  after(async () => {
    await closeBrowser?.();
    await api?.close();
    await node?.stop();
  });

  /** Signs `email` in and starts it at step 5 (steps 2-4 are the main walk's), wallet proven at step 6. */
  async function atTokenStep(email: string) {
    await page.context().clearCookies();
    await page.goto(`${api.url}/console/`);
    await signIn(page, api.url, email);
    // Signing in saves step 2 from the page; wait until the server has it, or it may land after the state below.
    await page.getByRole("heading", { name: "Connect your wallet" }).waitFor();
    await savedStep(api.service.ctx.console.users, email, 2);
    await api.service.ctx.console.users.saveWizard(email, {
      step: 5,
      wallet: devWallet(1, node.provider).address,
      organization: ORGANIZATION,
      chainId: 31337,
      token: TOKEN,
    });
    await page.reload();
    await page.getByRole("heading", { name: "Token and brand" }).waitFor();
  }

  /** Step 5 with the keyboard only: the brand, then the desk choice (arrow keys from the default). */
  async function chooseAndContinue(brand: string, choice: (typeof CHOICES)[number]) {
    await typeInto(page, page.getByLabel("Brand", { exact: true }), brand);
    await page.getByText(`✓ ${brand} is available.`).waitFor();
    const radio = (name: string) => page.getByRole("radio", { name: new RegExp(`^${name.replace(/[()]/g, "\\$&")}`) });
    // Tab stops once in a radio group, on the checked one: the default.
    assert.equal(await radio(CHOICES[0]).isChecked(), true, "the route's default is preselected");
    await tabTo(page, radio(CHOICES[0]));
    for (let i = 0; i < CHOICES.indexOf(choice); i++) await page.keyboard.press("ArrowDown");
    assert.equal(await radio(choice).isChecked(), true);
    await press(page, page.getByRole("button", { name: "Continue" }));
    await page.getByRole("heading", { name: "Deploy your program" }).waitFor();
    await page.getByTestId("review-desk-policy").filter({ hasText: choice }).waitFor();
  }

  /** Step 6 to the dashboard's Redemption desk page; returns the program's Factory. */
  async function deployToDesk(brand: string) {
    await page.getByRole("button", { name: "Sign in with Ethereum" }).click();
    await page.getByRole("alert", { name: "Wallet not proven" }).waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Deploy" }).click();
    await page.getByRole("heading", { name: `Deploying ${brand}` }).waitFor();
    await page.getByText("Status: succeeded").waitFor({ timeout: 120_000 });
    await page.getByRole("button", { name: "Continue to contracts" }).click();
    await page.getByRole("button", { name: "Go to the dashboard" }).click();
    await page.getByRole("link", { name: "Redemption desk", exact: true }).click();
    await page.waitForURL(`${api.url}/console/program/redemption-desk`);
    const res = await api.call("GET", `/api/v1/contracts/factories/${brand}`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const factory = Factory__factory.connect(res.body.data.factory as string, node.provider);
    return { factory, role: await factory.EXECUTOR_ROLE() };
  }

  it("manual_isExplainedOnStep5_savedWithTheWizard_andShownOnTheReview", async () => {
    const email = "manual@example.com";
    await atTokenStep(email);
    await page.getByText("A manager (Manager role on the Factory) can grant the role later").waitFor();
    await auditPage(page, "wizard-5-desk-policy");
    await chooseAndContinue("deskmanual", "Manual");
    assert.equal((await api.service.ctx.console.users.get(email)).wizard.deskPolicy, "manual");
    // The review step reads the saved state: a reload shows the same choice.
    await page.reload();
    await page.getByTestId("review-desk-policy").filter({ hasText: "Manual" }).waitFor();
    await screenshot(page, "wizard-6-desk-manual");
    await auditPage(page, "wizard-6-desk-policy");
  });

  it("manual_deploysWithTheExecutorHoldingItsRole_andTheDeskPageShowsManual", async () => {
    const { factory, role } = await deployToDesk("deskmanual");
    await page.getByText("The executor acts by this policy.").waitFor();
    assert.equal(await page.getByRole("radio", { name: /^Manual/ }).isChecked(), true);
    assert.equal(await factory.hasRole(role, EXECUTOR), true, "EXECUTOR_ROLE granted at deploy");
    assert.equal(
      await page.getByTestId("desk-gas").innerText(),
      "Gas today: 0 of 40,000,000 (0%), counted from 00:00 UTC.",
    );
    assert.equal(
      await page.getByTestId("desk-minimum").innerText(),
      "Requests under 2.5 DSK are finalized only when a manager approves them.",
    );
    assert.equal(await page.getByTestId("desk-paused").count(), 0);
    await screenshot(page, "desk-from-wizard-manual");
  });

  it("off_deploysWithTheExecutorWithoutItsRole_andTheDeskPageSaysSo", async () => {
    await atTokenStep("off@example.com");
    await chooseAndContinue("deskoff", "Off");
    const { factory, role } = await deployToDesk("deskoff");
    await page.getByText("The executor lacks the Executor role on the Factory").waitFor();
    assert.equal(await page.getByRole("radio", { name: /^Off/ }).isChecked(), true);
    assert.equal(await factory.hasRole(role, EXECUTOR), false, "no EXECUTOR_ROLE for the executor");
    await screenshot(page, "desk-from-wizard-off");
  });
});
