import { after, before, describe } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { JsonRpcProvider } from "ethers";
import type { Page } from "playwright-core";
import { devWallet } from "@points/testkit";
import { launch, screenshot } from "./helpers/browser.js";
import { steps } from "./helpers/steps.js";
import { injectWallet, type TestWallet } from "./helpers/wallet.js";
import { signIn } from "./helpers/flow.js";
import { startPlatform, type StartRun } from "./helpers/start.js";
import { cli } from "../../api/test/helpers/cli.js";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/index.html");
const it = steps();

/**
 * A newcomer's first run: the README's `pnpm start` after its build (scripts/start.mjs as a child process, on free ports
 * and a temporary folder), its printed demo account, a new account of its dev domain, and the operator CLI beside it.
 */
describe("first run: node scripts/start.mjs, its demo account, a new dev account and the operator CLI", () => {
  let start: StartRun;
  let provider: JsonRpcProvider;
  let closeBrowser: (() => Promise<void>) | undefined;
  let page: Page;
  let wallet: TestWallet;

  before(async () => {
    assert.ok(existsSync(DIST), "build the console first: pnpm --filter @points/console build");
    start = await startPlatform();
    provider = new JsonRpcProvider(start.chainUrl, undefined, { staticNetwork: true });
    const b = await launch({ width: 1280, height: 860 });
    closeBrowser = b.close;
    page = b.context.pages()[0] ?? (await b.context.newPage());
    page.setDefaultTimeout(30_000);
    wallet = await injectWallet(page, provider, devWallet(1, provider));
  });

  after(async () => {
    await closeBrowser?.();
    provider?.destroy();
    await start?.stop();
  });

  it("demoAccount_opensTheDemoProgramsRedemptionDesk_andItsQueue", async () => {
    assert.match(start.demoEmail, /^demo-[0-9a-f]{12}@console\.localhost$/);
    await page.goto(`${start.apiUrl}/console/`);
    await signIn(page, start.apiUrl, start.demoEmail);
    await page.getByRole("link", { name: "Redemption desk", exact: true }).click();
    await page.waitForURL(`${start.apiUrl}/console/program/redemption-desk`);
    await page.getByText("No pending requests.", { exact: true }).waitFor();
    assert.equal(await page.getByTestId("desk-status").innerText(), "The executor does nothing for this program.");
    assert.equal(await page.getByRole("alert").count(), 0, "no NOT_FOUND or other error on the desk");
    await screenshot(page, "first-run-demo-desk");
  });

  it("operatorCli_refusesTheEmbeddedDatabaseTheRunningStartHolds", async () => {
    const inUse =
      `points-api: the embedded database in ${start.dataDir} is in use by another process (a running \`pnpm start\` or ` +
      "`points-api serve`?): stop it first, or use its admin routes; if nothing runs, retry in 60 s (the lock of a process that died expires)\n";
    for (const args of [
      ["accounts", "approve", "ops@example.com"],
      ["keys", "create", "--name", "ops"],
    ]) {
      assert.deepEqual(await cli(start.dataDir, args), { code: 1, stdout: "", stderr: inUse }, args.join(" "));
    }
  });

  it("newDevAccount_walksTheWizard_andItsDeployIsNotRefused", async () => {
    const brand = "firstrun";
    await page.context().clearCookies();
    await wallet.use(devWallet(3, provider));
    await page.goto(`${start.apiUrl}/console/`);
    await signIn(page, start.apiUrl, "newcomer@console.localhost");
    await page.getByRole("button", { name: "Connect wallet" }).click();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByLabel("Organization name", { exact: true }).fill("First Run Ltd");
    await page.getByLabel("Website", { exact: true }).fill("https://first.example");
    await page.getByLabel("Description", { exact: true }).fill("Tries pnpm start.");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("radio", { name: /Hardhat/ }).check();
    await page.getByRole("button", { name: "Continue" }).click();
    for (const [label, value] of [
      ["Token name", "First Points"],
      ["Token symbol", "FIRST"],
      ["Token description", "Points of a first run."],
      ["Logo URL", "https://first.example/logo.png"],
      ["Token website URL", "https://first.example/points"],
      ["Brand", brand],
    ])
      await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByText(`✓ ${brand} is available.`).waitFor();
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByRole("button", { name: "Deploy" }).click();
    // Refused, the page would stay here and say "Your account is not approved to deploy yet".
    await page.getByRole("heading", { name: `Deploying ${brand}` }).waitFor();
    await page.getByText("Status: succeeded").waitFor({ timeout: 120_000 });
    await screenshot(page, "first-run-new-account-deployed");
  });
});
