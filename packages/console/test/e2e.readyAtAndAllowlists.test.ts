import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseUnits } from "ethers";
import type { Page } from "playwright-core";
import { Factory__factory, MockStablecoin__factory, Points__factory } from "@points/contracts";
import * as pointsApi from "@points/api";
import {
  deployProgram,
  fundedCampaign,
  devWallet,
  startApi,
  startNode,
  type DevNode,
  type TestApi,
} from "@points/testkit";
import { launch, screenshot } from "./helpers/browser.js";
import { signIn } from "./helpers/flow.js";

const DIST = resolve(dirname(fileURLToPath(import.meta.url)), "../dist/index.html");
const hhmm = (d: Date) => `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;

// After setRedeemDelay(3600) a request made at delay 0 read "pending" while the
// chain let its requester finalize it, and no page said when a request would be ready.
describe("console e2e: redemption ready times and the Allowlists buttons, in headless Chromium", () => {
  let node: DevNode;
  let api: TestApi<pointsApi.Service>;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let readyAt2: Date;
  let alice: string;

  before(async () => {
    assert.ok(existsSync(DIST), "build the console first: pnpm --filter @points/console build");
    node = await startNode();
    const brand = devWallet(1, node.provider);
    alice = devWallet(2, node.provider).address;
    const { record, usdc } = await deployProgram(node.provider, "acme");
    const factory = Factory__factory.connect(record.factory, brand);
    const stable = MockStablecoin__factory.connect(usdc, brand);
    // A funded campaign leaves the brand able to mint and hold SP, as in ledger.routes.test.ts.
    await fundedCampaign(node.provider, record, usdc, "launch", 100n);
    await (await factory.addToMintWhitelist(brand.address)).wait();
    await (await factory.addToRedeemWhitelist(brand.address)).wait();
    await (await stable.mint(brand.address, parseUnits("20", 6))).wait();
    await (await stable.approve(record.factory, parseUnits("20", 6))).wait();
    await (await factory.mint(usdc, parseUnits("20", 6), brand.address)).wait();
    await (await Points__factory.connect(record.points, brand).approve(record.factory, parseUnits("20", 18))).wait();
    await (await factory.setRedeemDelay(0)).wait();
    await (await factory.requestRedeem(usdc, brand.address, parseUnits("10", 18), false)).wait();
    await (await factory.setRedeemDelay(3600)).wait();
    await (await factory.requestRedeem(usdc, brand.address, parseUnits("10", 18), false)).wait();
    readyAt2 = new Date(Number(await factory.redeemReadyAt(2)) * 1000);
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
    await page.goto(`${api.url}/console/`);
    await signIn(page, api.url, owner);
  });

  after(async () => {
    await closeBrowser?.();
    await api?.close();
    await node?.stop();
  });

  it("afterADelayChange_theEarlierRequestIsReady_andTheLaterSaysWhen", async () => {
    await page.getByRole("link", { name: "Redemption", exact: true }).click();
    const row = (id: string) =>
      page
        .getByRole("table")
        .getByRole("row")
        .filter({ has: page.getByRole("cell", { name: id, exact: true }) });
    await row("1").getByText("ready to finalize", { exact: true }).waitFor();
    // An hour from the request's block, in the browser's clock (the same machine's): "5x min",
    // "1 h" or "1 h N min" depending on the seconds gone by since and on how far a fast-mining dev
    // chain's block times run ahead of the wall clock.
    const text = (await row("2").locator(".badge").innerText()).trim();
    assert.match(text, new RegExp(`^ready in (1 h( [0-9] min)?|5[0-9] min) \\(${hhmm(readyAt2)}\\)$`));
    await screenshot(page, "redemption-ready-at");
  });

  // At 1280, 1440 and 1920 px the Check table overflowed its card and the
  // Members card lay over the Add/Remove buttons, so a mouse click landed on the Members card.
  for (const width of [1280, 1440, 1920]) {
    it(`allowlists_at${width}px_theAddButtonsAreTheTopmostElementUnderTheirCentre`, async () => {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole("link", { name: "Allowlists", exact: true }).click();
      await page.getByLabel("Address", { exact: true }).fill(alice);
      await page.getByRole("button", { name: "Check", exact: true }).click();
      const table = page.getByRole("table", { name: `Allowlists of ${alice}` });
      await table.waitFor();
      for (const button of await table.getByRole("button").all()) {
        await button.scrollIntoViewIfNeeded();
        const onTop = await button.evaluate((b) => {
          const r = b.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return hit !== null && (hit === b || b.contains(hit));
        });
        assert.equal(onTop, true, `${await button.innerText()} is covered at ${width} px`);
      }
      await screenshot(page, `allowlists-${width}`);
    });
  }
});
