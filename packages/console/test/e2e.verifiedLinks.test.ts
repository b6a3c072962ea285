import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Page } from "playwright-core";
import * as pointsApi from "@points/api";
import { devWallet, startApi, startFakeEtherscan, startNode, type DevNode, type TestApi } from "@points/testkit";
import { launch, screenshot } from "./helpers/browser.js";
import { injectWallet } from "./helpers/wallet.js";
import { signIn } from "./helpers/flow.js";
import { auditPage } from "./helpers/audit.js";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/index.html");
const EMAIL = "verified@links.example";
const BROWSER = "https://explorer.example";
const KEY = "console-explorer-key-31d0";

/**
 * The contracts step and the dashboard show each contract's source verification: in words
 * while the explorer does not answer, then a "Verified source" link per contract.
 */
describe("console e2e: verified-source links on the contracts step and the dashboard, in headless Chromium", () => {
  let node: DevNode;
  let explorer: Awaited<ReturnType<typeof startFakeEtherscan>>;
  let api: TestApi<pointsApi.Service>;
  let closeBrowser: (() => Promise<void>) | undefined;
  let page: Page;
  let addresses: Record<string, string | null>;

  before(async () => {
    assert.ok(existsSync(DIST), "build the console first: pnpm --filter @points/console build");
    node = await startNode();
    explorer = await startFakeEtherscan(node.provider, KEY);
    explorer.state.down = true;
    api = await startApi(pointsApi, node.url, {
      // The node shares two cores with Chromium and the API: a slow answer is not an outage.
      RPC_TIMEOUT_MS: "60000",
      DEV_MAILBOX: "1",
      WORKER_POLL_MS: "50",
      ETHERSCAN_API_KEY: KEY,
      VERIFY_POLL_MS: "500",
      VERIFY_RETRY_MIN_MS: "200",
      CHAINS: JSON.stringify([
        {
          chainId: 31337,
          name: "Hardhat",
          rpcUrl: node.url,
          blockTimeMs: 200,
          explorerUrl: BROWSER,
          sourceVerify: { etherscanApiUrl: explorer.apiUrl },
        },
      ]),
    });
    // The account's own deploy, run by the worker (the wizard's earlier steps have their own tests).
    const ctx = api.service.ctx;
    const wallet = devWallet(1, node.provider);
    await ctx.console.users.ensure(EMAIL);
    const { task } = await ctx.tasks.create({
      owner: `session:${EMAIL}`,
      predicted: null,
      request: {
        brand: "verified",
        organization: { name: "Verified Ltd", website: "https://verified.example", description: "Shops." },
        chainId: 31337,
        token: {
          name: "Verified Points",
          symbol: "VER",
          description: "Points.",
          logoUrl: "https://verified.example/logo.png",
          websiteUrl: "https://verified.example/points",
        },
        deployer: wallet.address,
      },
    });
    ctx.pokeWorker();
    for (let t = (await ctx.tasks.get(task.id))!; t.status !== "succeeded"; t = (await ctx.tasks.get(task.id))!) {
      assert.notEqual(t.status, "failed", JSON.stringify(t.error));
      await new Promise((r) => setTimeout(r, 100));
    }
    const program = (await ctx.programs.find((await ctx.tasks.get(task.id))!.programId!))!;
    addresses = {
      points: program.points,
      factory: program.factory,
      collateralVault: program.collateralVault,
      pspVault: program.pspVault,
      oracle: program.oracle,
    };
    await ctx.console.users.saveWizard(EMAIL, { step: 8, taskId: task.id, wallet: wallet.address, chainId: 31337 });

    const b = await launch({ width: 1280, height: 860 });
    closeBrowser = b.close;
    page = b.context.pages()[0] ?? (await b.context.newPage());
    page.setDefaultTimeout(30_000);
    await injectWallet(page, node.provider, wallet);
    await page.goto(`${api.url}/console/`);
    await signIn(page, api.url, EMAIL);
  });
  after(async () => {
    await closeBrowser?.();
    await api?.close();
    await explorer?.close();
    await node?.stop();
  });

  it("whileTheExplorerDoesNotAnswer_theContractsStepSaysVerificationIsPending_inWords", async () => {
    await page.getByRole("heading", { name: "Your contracts" }).waitFor();
    await page
      .getByText(/Verification on the explorer pending: etherscan did not answer/)
      .first()
      .waitFor();
    assert.equal(await page.getByRole("link", { name: "Verified source on the explorer" }).count(), 0);
    await screenshot(page, "contracts-verification-pending");
  });

  it("onceVerified_eachContractHasAVerifiedLink_toItsExplorerPage_thatOpensWithoutTheOpener", async () => {
    // The release's contracts were verified before (the explorer answers "already verified"):
    // only the proxies' source is compiled here, which keeps this test short.
    const release = (await api.service.ctx.db.query<{ address: string }>(
      "SELECT address FROM source_verification_targets WHERE contract LIKE 'release/%'",
    )) as { address: string }[];
    for (const r of release) explorer.verified.add(r.address.toLowerCase());
    explorer.state.down = false;
    const links = page.getByRole("link", { name: "Verified source on the explorer" });
    const deployed = Object.values(addresses).filter((a): a is string => !!a);
    const releaseVerified = page.getByText(
      `Release contracts (implementations and ProgramFactory): ${release.length} of ${release.length} verified`,
    );
    // Each contract is asked again on its own backoff, which grew while the explorer was down
    // (longer on a loaded machine): wait for the proxies and the release alike.
    for (let i = 0; (await links.count()) < deployed.length || !(await releaseVerified.isVisible()); i++) {
      assert.ok(i < 240, "every proxy and release contract verified within four minutes");
      await new Promise((r) => setTimeout(r, 1000));
      await page.reload();
      await page.getByRole("heading", { name: "Your contracts" }).waitFor();
    }
    const hrefs = await links.evaluateAll((as) => as.map((a) => [a.getAttribute("href"), a.getAttribute("rel")]));
    assert.deepEqual(hrefs.map(([href]) => href).sort(), deployed.map((a) => `${BROWSER}/address/${a}#code`).sort());
    assert.ok(hrefs.every(([, rel]) => rel === "noopener noreferrer"));
    await releaseVerified.waitFor();
    await auditPage(page, "wizard-8-contracts-verified");
  });

  it("theDashboardOverview_showsTheSameVerifiedLinks", async () => {
    await page.getByRole("button", { name: "Go to the dashboard" }).click();
    await page.getByRole("link", { name: "Overview" }).waitFor();
    const links = page.getByRole("link", { name: "Verified source on the explorer" });
    const deployed = Object.values(addresses).filter((a): a is string => !!a);
    await links.nth(deployed.length - 1).waitFor();
    assert.equal(await links.count(), deployed.length);
    assert.ok(
      (await links.evaluateAll((as) => as.map((a) => a.getAttribute("rel")))).every((r) => r === "noopener noreferrer"),
    );
    await page.getByTestId("release-verification").waitFor();
    await auditPage(page, "dashboard-overview-verified");
  });
});
